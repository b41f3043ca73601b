#if canImport(SwiftUI)
import CoordinatorClient
import Observation

/// The shell's view model: the latest State as a `ScreenStackModel`, and the catalog to render
/// screens from. Views read it; taps go to the client, and the next State redraws them.
@MainActor @Observable
public final class ShellModel {
    public private(set) var model: ScreenStackModel?
    public private(set) var catalog: Catalog?
    /// A problem to show (a stale tap is not one: its State is adopted and shown).
    public var message: String?
    private let client: CoordinatorSession

    public init(client: CoordinatorSession) { self.client = client }

    /// Resumes or starts the session, then follows its States while the view is shown.
    public func run() async {
        do {
            catalog = try await client.catalog()
            let states = await client.states()
            try await client.start()
            for await state in states { model = ScreenStackModel(state) }
        } catch {
            message = "\(error)"
        }
    }

    /// Sends `event` of `screen` (the screen the user tapped on, so a stale tap is noticed).
    public func send(_ event: String, payload: [String: JSONValue]? = nil, from screen: ScreenID) {
        Task {
            do {
                try await client.send(event, payload: payload, from: screen)
            } catch let problem as CoordinatorProblem where problem.kind == .staleScreen {
                // The client adopted the current State; the views already show it.
            } catch {
                message = "\(error)"
            }
        }
    }

    /// Reports a native gesture (back swipe, sheet swiped down, tab picked), if it means one.
    public func perform(_ action: ShellAction?) {
        guard let action else { return }
        Task {
            do { try await client.perform(action) } catch { message = "\(error)" }
        }
    }
}
#endif
