import Navigation
import TestSupport
import Testing

/// Random sequences of events on the test app: after each step, the snapshot restores to a tree
/// that renders the same and answers the next event the same.
@Suite struct SnapshotPropertyTests {
    /// A payload for `declaration`; now and then a wrong one, so that rejections are compared too.
    static func payload(for declaration: EventDeclaration, using random: inout SplitMix64) -> JSONValue {
        if Int.random(in: 0..<10, using: &random) == 0 { return ["unexpected": true] }
        var members: [String: JSONValue] = [:]
        for field in declaration.fields {
            switch field.type {
            case .integer: members[field.name] = .int(Int.random(in: 0..<4, using: &random))
            case .boolean: members[field.name] = .bool(Bool.random(using: &random))
            default:
                let choices: [String] = field.name == "tab" ? ["a", "b", "c"] : ["", "Ada", "Grace"]
                members[field.name] = .string(choices.randomElement(using: &random)!)
            }
        }
        return .object(members)
    }

    static func outcome(_ body: () throws -> EventOutcome) -> String {
        do { return "ok \(try body())" } catch { return "error \(error)" }
    }

    /// 60 snapshots and restores, 24 times over: seconds of computing on a loaded machine, so on
    /// threads of their own, not on Swift's pool (where the in-process servers of other tests answer).
    @Test(arguments: 0..<24)
    func restoredTreesBehaveTheSame(seed: UInt64) async throws {
        try await onOwnThread { try restoredTreesBehaveTheSame(seed) }
    }

    func restoredTreesBehaveTheSame(_ seed: UInt64) throws {
        var random = SplitMix64(state: seed)
        let app = TestScreens.app
        let platform = Platform.allCases.randomElement(using: &random)!
        var tree = try app.start(platform: platform, environment: Environment())
        let declarations = Dictionary(
            (TestScreens.all.flatMap(\.events) + SystemEvent.all).map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })

        for _ in 0..<60 {
            var restored = try app.decodeSnapshot(app.snapshot(tree))
            #expect(restored == tree)
            #expect(app.render(restored) == app.render(tree))
            #expect(tree.screenCount == tree.allScreens.count)

            let accepted = app.acceptedEvents(in: tree)
            let name = accepted.randomElement(using: &random)!
            let payload = Self.payload(for: declarations[name] ?? EventDeclaration(name), using: &random)
            let event = IncomingEvent(screen: tree.top!.id, name: name, payload: payload)

            let original = Self.outcome { try app.apply(event, to: &tree, environment: Environment()) }
            let replayed = Self.outcome { try app.apply(event, to: &restored, environment: Environment()) }
            #expect(original == replayed)
            #expect(restored == tree)
            #expect(app.render(restored) == app.render(tree))
        }
    }
}
