import Foundation
import Navigation

// The core benchmark: apply one event to a ten-screen session and render its State to JSON,
// with no HTTP and no SQL. Also snapshot encode and decode. Prints one JSON line.

let list = ScreenDefinition("list", props: [.integer("depth")], events: [EventDeclaration("select", [.integer("item")])])

struct Browser: Coordinator {
    static let typeName = "Browser"
    mutating func start(_ context: inout Context) throws {
        context.setRoot(list, ["depth": 1])
    }
    mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
        let depth = (event.screen.props["depth"]?.intValue ?? 0) + 1
        try context.push(list, ["depth": .int(depth), "item": .int(event.payload.int("item")), "title": "Item"])
        return .handled
    }
}

let app = NavigationApp(screens: [list], coordinators: [Browser.self], root: { _ in Browser() })
var tree = try app.start(platform: .phone, environment: Environment())
@MainActor func send(_ name: String, _ payload: JSONValue = .null) throws {
    try app.apply(IncomingEvent(screen: tree.top!.id, name: name, payload: payload), to: &tree, environment: Environment())
}
for item in 1..<10 { try send("select", ["item": .int(item)]) }  // ten screens

func measure(_ iterations: Int, _ body: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    for _ in 0..<iterations { try body() }
    let elapsed = start.duration(to: .now)
    return (Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12) / Double(iterations)
}

let iterations = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 100_000
var bytes = 0
// Each iteration is one event (open, then back, so the session stays at ten screens) and one render.
var opening = true
let applyAndRender = try measure(iterations) {
    if opening { try send("select", ["item": 7]) } else { try send("back") }
    opening.toggle()
    bytes = app.renderState(tree, extra: ["id": "bench", "version": 1]).count
}
let snapshot = try app.snapshot(tree)
let encode = try measure(iterations / 10) { _ = try app.snapshot(tree) }
let decode = try measure(iterations / 10) { _ = try app.decodeSnapshot(snapshot) }
print(
    "{\"apply_render_us\":\(String(format: "%.2f", applyAndRender)),\"state_bytes\":\(bytes),"
        + "\"snapshot_encode_us\":\(String(format: "%.2f", encode)),\"snapshot_decode_us\":\(String(format: "%.2f", decode)),"
        + "\"snapshot_bytes\":\(snapshot.count),\"screens\":\(tree.allScreens.count)}")
