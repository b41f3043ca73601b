import Foundation
import Navigation
import SQLiteStore
import Store
import SampleApp
import Secrets

// Where the writer's time goes for one navigation event of the shipped app, without HTTP:
// the flow (with its SQL reads), the snapshot, and the UPDATE of the session row.
// usage: coordinatord-appbench MIGRATIONS_FOLDER [ITERATIONS]

let arguments = CommandLine.arguments
let iterations = arguments.count > 2 ? Int(arguments[2]) ?? 20_000 : 20_000
let connection = try SQLiteConnection(path: ":memory:")
try Migrator(migrations: Migration.load(directory: arguments[1]) + SampleApp.migrations(for: .sqlite)).migrate(connection)
let hasher = PasswordHasher(operations: 1, memoryBytes: 8 * 1024)
let services = try SampleAppServices(hasher: hasher)
let passwords = PreparedPasswords(hasher: hasher)
try connection.run(
    "INSERT INTO users (email, email_key, password_hash, display_name, created_at) VALUES ('a@example.com', 'a@example.com', ?1, 'Author', 0)",
    [.text(try hasher.hash("x"))])
for index in 0..<25 {
    try connection.run("INSERT INTO posts (author_id, text, created_at) VALUES (1, ?1, ?2)", [.text("Post \(index) of ordinary length."), .int(index)])
}
try connection.run(
    "INSERT INTO sessions (id, token_hash, version, snapshot, created_at, last_used_at, expires_at) VALUES ('b', x'00', 1, x'00', 0, 0, 0)")

let environment = services.environment(connection: connection, passwords: passwords, clientAddress: "", now: 1)
let app = SampleApp.navigation
var tree = try app.start(platform: .phone, user: SessionUser(id: 1, displayName: "Author"), environment: environment)

let cycle: [(String, JSONValue)] = [
    ("openPost", ["postId": 25]), ("openUser", ["userId": 1]), ("back", .null), ("back", .null),
    ("selectTab", ["tab": "profile"]), ("selectTab", ["tab": "home"]),
]

var applyTime = Duration.zero, snapshotTime = Duration.zero, updateTime = Duration.zero, renderTime = Duration.zero
let clock = ContinuousClock()
for step in 0..<iterations {
    let (name, payload) = cycle[step % cycle.count]
    var next = tree
    applyTime += try clock.measure {
        try app.apply(IncomingEvent(screen: next.top!.id, name: name, payload: payload), to: &next, environment: environment)
    }
    var bytes: [UInt8] = []
    snapshotTime += try clock.measure { bytes = try app.snapshot(next) }
    updateTime += try clock.measure {
        try connection.run("UPDATE sessions SET version = version + 1, snapshot = ?2, expires_at = ?3 WHERE id = ?1",
            [.text("b"), .blob(bytes), .int(step)])
    }
    renderTime += clock.measure { _ = app.renderState(next, extra: ["id": "b", "version": 1]) }
    tree = next
}
func microseconds(_ duration: Duration) -> String {
    String(format: "%.1f", (Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12) / Double(iterations))
}
print("{\"apply_us\":\(microseconds(applyTime)),\"snapshot_us\":\(microseconds(snapshotTime)),\"update_us\":\(microseconds(updateTime)),\"render_us\":\(microseconds(renderTime))}")
