import Foundation
import TestSupport
import Testing

/// Signing in and signing out bound what a session's token may read of its history: on a shared
/// device, whoever holds the session after a sign-out (or signs in on it after) reads nothing of
/// the previous user's; an operator still reads all of it.
@Suite struct HistoryBoundaryTests {
    @Test(arguments: Backend.allCases) func theNextHolderOfASignedOutSessionReadsNothingOfThePreviousUser(
        backend: Backend
    ) async throws {
        let server = try await ServerProcess.start(
            backend: backend, arguments: ["--operator-key-file", try OperatorAccessTests.keyFile()])
        var other = try await SessionClient.create(port: server.port)
        try await Journey.register(&other, email: "grace@example.com", displayName: "Grace")

        var device = try await SessionClient.create(port: server.port)
        try await Journey.register(&device, email: "ada@example.com", displayName: "Ada")
        try Journey.expect200(try await device.send("compose"))
        try Journey.expect200(try await device.send("submit", ["text": "Ada's secret plans"]))
        let adaLast = device.version
        try Journey.expect200(try await device.send("selectTab", ["tab": "profile"]))
        try Journey.expect200(try await device.send("openSettings"))
        try Journey.expect200(try await device.send("signOut"))
        let signedOut = device.version

        // Signed out: no entry and no past State of Ada's is readable with the new token.
        let anonymous = try await JournalTests.history(device)
        #expect(anonymous.allSatisfy { ($0["version"] as? Int ?? 0) > signedOut }, "\(anonymous)")
        #expect(!SessionClient.json(anonymous).contains("ada@example.com"))
        for version in 1...signedOut {
            ProblemAssertions.expect(try await device.get("/history/\(version)"), 404, "version-not-retained")
        }

        // Grace signs in on the same session: her history starts at her sign-in.
        try Journey.expect200(try await device.send("logIn"))
        try Journey.expect200(try await Journey.signIn(&device, email: "grace@example.com"))
        let graceSignedIn = device.version
        let grace = try await JournalTests.history(device)
        #expect(grace.map { $0["version"] as? Int ?? 0 } == [graceSignedIn])
        #expect(grace.first?["event"] as? String == "submit")
        #expect(!SessionClient.json(grace).contains("ada@example.com"))
        #expect(!SessionClient.json(grace).contains("Ada's secret plans"))
        #expect(try await device.get("/history/\(graceSignedIn)").status == 200)
        ProblemAssertions.expect(try await device.get("/history/\(adaLast)"), 404, "version-not-retained")
        ProblemAssertions.expect(try await device.get("/history/\(graceSignedIn - 1)"), 404, "version-not-retained")

        // An operator reads the whole history, Ada's included.
        let all = try await JournalTests.history(
            device, path: "/v1/operator/sessions/\(device.id)/history",
            headers: ["Authorization": "Bearer \(OperatorAccessTests.key)"])
        #expect(all.map { $0["version"] as? Int ?? 0 } == Array((1...graceSignedIn).reversed()))
        let adaState = try await OperatorAccessTests.get(
            server, "/v1/operator/sessions/\(device.id)/history/\(adaLast)", key: OperatorAccessTests.key)
        #expect(adaState.status == 200)
        #expect(adaState.text.contains("Ada's secret plans"))
    }
}
