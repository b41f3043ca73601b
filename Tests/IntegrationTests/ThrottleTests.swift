import Foundation
import Store
import TestSupport
import Testing

/// The password throttles over HTTP on the real binary: a failed check counts whatever the
/// event's answer, an attack from many addresses does not lock the owner's device out, and what
/// a client types is never stored as a key. Test hooks stop the server's clock, so no delay
/// depends on how fast the requests go.
@Suite struct ThrottleTests {
    /// The flows that check a password, each asked at its own screen.
    enum PasswordCheck: String, CaseIterable, CustomStringConvertible {
        case signIn, changePassword, confirmDelete

        var email: String { "\(rawValue.lowercased())@example.com" }
        var description: String { rawValue }

        /// Walks a session that just registered to the screen that asks for the password.
        func open(_ client: inout SessionClient) async throws {
            try Journey.expect200(try await client.send("selectTab", ["tab": "profile"]))
            try Journey.expect200(try await client.send("openSettings"))
            switch self {
            case .signIn:
                try Journey.expect200(try await client.send("signOut"))
                try Journey.expect200(try await client.send("logIn"))
            case .changePassword: try Journey.expect200(try await client.send("changePassword"))
            case .confirmDelete: try Journey.expect200(try await client.send("deleteAccount"))
            }
        }

        func guess(_ client: inout SessionClient, _ password: String) async throws -> TestResponse {
            switch self {
            case .signIn: try await client.send("submit", ["email": email, "password": password])
            case .changePassword:
                try await client.send("save", ["currentPassword": password, "newPassword": "another long passphrase"])
            case .confirmDelete: try await client.send("confirm", ["password": password])
            }
        }
    }

    /// The JSON bytes of a session's stored snapshot (its length is in the header of the
    /// compressed form).
    static func snapshotBytes(_ database: String, session: String) throws -> Int {
        let stored =
            try StoredData.open(database).queryFirst("SELECT snapshot FROM sessions WHERE id = ?1", [.text(session)]) {
                $0.blob(0)
            } ?? []
        guard stored.first == 0x01, stored.count >= 5 else { return stored.count }
        return stored[1..<5].reversed().reduce(0) { $0 << 8 | Int($1) }
    }

    /// A session holding just under its byte limit answers a wrong password `422` (the error
    /// message would grow it past the limit): each of those failures still counts, so the fourth
    /// guess waits, and so does the right password then. Before, nothing counted: unlimited
    /// guesses, and the right one changed the password or deleted the account.
    @Test(arguments: Backend.allCases) func aFailedPasswordCheckCountsEvenWhenItsEventIsRefused(backend: Backend) async throws {
        let database = try await backend.newDatabase()
        var server = try await ServerProcess.start(databasePath: database, arguments: ["--test-hooks"])
        var clients: [PasswordCheck: SessionClient] = [:]
        for check in PasswordCheck.allCases {
            var client = try await SessionClient.create(port: server.port)
            try await Journey.register(&client, email: check.email, displayName: "Victim")
            try await check.open(&client)
            clients[check] = client
        }
        try await server.stop()

        for check in PasswordCheck.allCases {
            let limit = try Self.snapshotBytes(database, session: clients[check]!.id) + 8
            server = try await ServerProcess.start(
                databasePath: database, arguments: ["--test-hooks", "--max-snapshot-bytes", "\(limit)"])
            var client = clients[check]!.moved(to: server.port)
            var statuses: [Int] = []
            for _ in 0..<4 { statuses.append(try await check.guess(&client, "not the password at all").status) }
            #expect(statuses == [422, 422, 422, 429], "\(check)")
            let right = try await check.guess(&client, Journey.password)
            #expect(right.status == 429, "\(check)")
            #expect(right.headers["retry-after"] == "1", "\(check)")
            try await server.stop()
        }
        let users = try StoredData.open(database).query("SELECT password_hash FROM users") { $0.string(0) }
        #expect(users.count == PasswordCheck.allCases.count)
    }

    /// Signs in from a new session with `headers` (an address, a device credential).
    static func signIn(_ port: UInt16, email: String, password: String = Journey.password, headers: [String: String])
        async throws -> TestResponse
    {
        var client = try await SessionClient.create(port: port)
        try Journey.expect200(try await client.send("logIn"))
        return try await client.send("submit", ["email": email, "password": password], headers: headers)
    }

    /// 34 addresses × 3 wrong passwords lock the account out for every client it does not know
    /// (a made-up device credential or another account's included), while the owner's phone,
    /// which signed in before, gets in at once from anywhere. Its credential is limited too: it
    /// waits after its own failures. Before, the lockout was for everyone, the owner included.
    @Test(arguments: Backend.allCases) func aDistributedAttackLocksOutUnknownClientsButNotTheOwnersDevice(backend: Backend)
        async throws
    {
        let server = try await ServerProcess.start(backend: backend, arguments: ["--test-hooks", "--trusted-proxy", "127.0.0.1"])
        let email = "owner@example.com"
        var owner = try await SessionClient.create(port: server.port)
        try await Journey.register(&owner, email: email, displayName: "Owner")
        var other = try await SessionClient.create(port: server.port)
        try await Journey.register(&other, email: "other@example.com", displayName: "Other")
        let phoneAnswer = try await Self.signIn(server.port, email: email, headers: ["X-Forwarded-For": "198.51.100.1"])
        try Journey.expect200(phoneAnswer)
        let phone = phoneAnswer.json["deviceToken"] as? String ?? "none given"
        let othersAnswer = try await Self.signIn(server.port, email: "other@example.com", headers: [:])
        let othersDevice = othersAnswer.json["deviceToken"] as? String ?? "none given either"
        #expect(phone.count == 43 && othersDevice.count == 43 && othersDevice != phone)

        var attacker = try await SessionClient.create(port: server.port)
        try Journey.expect200(try await attacker.send("logIn"))
        var statuses: [Int] = []
        for address in 0..<34 {
            for _ in 0..<3 {
                statuses.append(
                    try await attacker.send(
                        "submit", ["email": email, "password": "a wrong guess at it"],
                        headers: ["X-Forwarded-For": "203.0.113.\(address)"]
                    ).status)
            }
        }
        #expect(statuses.prefix(100).allSatisfy { $0 == 200 })
        #expect(statuses.suffix(2) == [429, 429])

        let unknown = try await Self.signIn(server.port, email: email, headers: ["X-Forwarded-For": "198.51.100.7"])
        #expect(unknown.status == 429)
        let madeUp = try await Self.signIn(
            server.port, email: email, headers: ["X-Forwarded-For": "198.51.100.7", "Device-Token": String(phone.reversed())])
        #expect(madeUp.status == 429)
        let othersCredential = try await Self.signIn(
            server.port, email: email, headers: ["X-Forwarded-For": "198.51.100.7", "Device-Token": othersDevice])
        #expect(othersCredential.status == 429)

        let back = try await Self.signIn(
            server.port, email: email, headers: ["X-Forwarded-For": "192.0.2.200", "Device-Token": phone])
        #expect(back.status == 200)
        let top = SessionClient.screens(in: back.json).first { $0["id"] as? String == back.json["top"] as? String }
        #expect(top?["name"] as? String == "timeline")
        #expect(back.json["deviceToken"] == nil)  // a known device keeps its credential

        // Whoever holds the credential is judged on its failures: three, then a wait.
        var thief = try await SessionClient.create(port: server.port)
        try Journey.expect200(try await thief.send("logIn"))
        let stolen = ["X-Forwarded-For": "203.0.113.250", "Device-Token": phone]
        for _ in 0..<3 {
            #expect(try await thief.send("submit", ["email": email, "password": "a wrong guess at it"], headers: stolen).status == 200)
        }
        let waiting = try await thief.send("submit", ["email": email, "password": Journey.password], headers: stolen)
        ProblemAssertions.expect(waiting, 429, "throttled")
        #expect(waiting.headers["retry-after"] == "1")
    }

    /// A sign-in e-mail over 254 bytes is refused (`422`, the field named) before anything is
    /// looked up or stored; one within 254 bytes whose comparison key is eleven times longer
    /// (U+FDFA) is an unknown account like any other, and the throttles store only 64-character
    /// hashes of their keys. Registration refuses that address, and its rate-limit key is a hash
    /// too. Before, each failure stored the 2.7 KB key twice.
    @Test(arguments: Backend.allCases) func aLongSignInEmailStoresNothingAndThrottleKeysAreHashes(backend: Backend)
        async throws
    {
        let server = try await ServerProcess.start(backend: backend)
        var client = try await SessionClient.create(port: server.port)
        try Journey.expect200(try await client.send("logIn"))
        let store = try StoredData.open(server.databasePath)
        func keyLengths(_ table: String) throws -> [Int] {
            try store.query("SELECT length(key) FROM \(table)") { $0.int(0) }
        }

        let tooLong = String(repeating: "\u{FDFA}", count: 84) + "@x.com"
        let refused = try await client.send("submit", ["email": tooLong, "password": "whatever password 1"])
        ProblemAssertions.expect(refused, 422, "invalid-payload")
        #expect((refused.json["errors"] as? [[String: Any]])?.first?["field"] as? String == "email")
        #expect(try keyLengths("throttle_failures").isEmpty)

        let expanding = String(repeating: "\u{FDFA}", count: 82) + "@x.co"
        #expect(expanding.utf8.count <= 254)
        try Journey.expect200(try await client.send("submit", ["email": expanding, "password": "whatever password 1"]))
        let expandingError = client.topScreen.props["error"] as? String
        try Journey.expect200(try await client.send("submit", ["email": "nobody@example.com", "password": "whatever password 1"]))
        #expect(expandingError == "Wrong e-mail or password.")
        #expect(client.topScreen.props["error"] as? String == expandingError)
        // Two accounts and their pairs with this client, and the client: five keys of 64 characters.
        #expect(try keyLengths("throttle_failures") == [64, 64, 64, 64, 64])

        var registering = try await SessionClient.create(port: server.port)
        try Journey.expect200(try await registering.send("signUp"))
        try Journey.expect200(try await registering.send("next", ["email": expanding]))
        #expect(registering.topScreen.name == "signUp.email")
        #expect(registering.topScreen.props["error"] as? String == "Enter a valid e-mail address.")
        #expect(try keyLengths("rate_buckets") == [64])
    }
}
