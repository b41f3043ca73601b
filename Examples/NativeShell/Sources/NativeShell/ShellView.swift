#if canImport(SwiftUI)
import CoordinatorClient
import SwiftUI

/// The whole shell: the root layer, each sheet over the one before, and the alert on top.
public struct ShellView: View {
    @State private var shell: ShellModel

    public init(client: CoordinatorSession) { _shell = State(initialValue: ShellModel(client: client)) }

    public var body: some View {
        Group {
            if let model = shell.model, let base = model.base {
                LayerView(shell: shell, model: model, layer: base)
            } else {
                ProgressView()
            }
        }
        .task { await shell.run() }
    }
}

/// One layer (a stack or tabs), presenting the next layer as a sheet; the topmost presents the alert.
struct LayerView: View {
    let shell: ShellModel
    let model: ScreenStackModel
    let layer: LayerModel
    @State private var alertFields: [String: String] = [:]

    /// The layer presented over this one.
    private var next: LayerModel? { model.layers.first { $0.index > layer.index } }

    var body: some View {
        content
            .sheet(
                item: Binding(
                    get: { next },
                    // Swiped down: ask the server; the sheet goes when the State says so.
                    set: { if $0 == nil, let next { shell.perform(model.action(dismissing: next)) } })
            ) { next in
                LayerView(shell: shell, model: model, layer: next)
            }
            .alert(
                model.alert.flatMap { shell.catalog?.screen(named: $0.name)?.title } ?? "",
                isPresented: .constant(next == nil && model.alert != nil), presenting: model.alert
            ) { alert in
                let events = alert.events.filter { !["back", "dismiss", "selectTab"].contains($0) }
                ForEach(events, id: \.self) { event in
                    let fields = shell.catalog?.event(event, of: alert.name)?.fields ?? []
                    // An alert takes text fields and buttons only, written out here.
                    ForEach(fields, id: \.name) { field in
                        if field.type == "password" {
                            SecureField(field.name, text: $alertFields[field.name, default: ""])
                        } else {
                            TextField(field.name, text: $alertFields[field.name, default: ""])
                        }
                    }
                    Button(event) { shell.send(event, payload: Payload.make(fields, alertFields), from: alert.id) }
                }
                Button("Cancel", role: .cancel) { shell.send("dismiss", from: alert.id) }
            } message: { alert in
                Text(alert.props["message"]?.stringValue ?? "")
            }
    }

    @ViewBuilder private var content: some View {
        switch layer.content {
        case .stack(let stack):
            StackView(shell: shell, model: model, layer: layer, stack: stack, tab: nil)
        case .tabs(let tabs):
            TabView(
                selection: Binding(
                    get: { tabs.selected }, set: { shell.perform(model.action(selecting: $0, in: layer)) })
            ) {
                ForEach(tabs.tabs) { tab in
                    StackView(shell: shell, model: model, layer: layer, stack: tab.stack, tab: tab.name)
                        .tabItem { Text(tab.title) }
                        .tag(tab.name)
                }
            }
        }
    }
}

/// A navigation stack: its root and the pushed screens, as the State has them. A back swipe
/// shortens the path; the shell sends `back` and shows whatever the answer says.
struct StackView: View {
    let shell: ShellModel
    let model: ScreenStackModel
    let layer: LayerModel
    let stack: StackModel
    let tab: String?

    var body: some View {
        NavigationStack(
            path: Binding(
                get: { stack.pathIDs },
                set: { shell.perform(model.action(poppingTo: $0.count, in: layer, tab: tab)) })
        ) {
            ScreenView(shell: shell, screen: stack.root)
                .navigationDestination(for: ScreenID.self) { id in
                    if let screen = stack.screen(id) { ScreenView(shell: shell, screen: screen) }
                }
        }
    }
}
#endif
