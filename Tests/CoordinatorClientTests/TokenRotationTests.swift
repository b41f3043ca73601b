import CoordinatorClient
import Foundation
import TestSupport
import Testing

/// The client keeps each rotated token in the app's store before it returns the answer, so a
/// relaunch resumes the session; the old token is dead.
@Suite struct TokenRotationTests {
    @Test func aRotatedTokenIsStoredAndTheOldOneIsDead() async throws {
        let server = try await ServerProcess.start()
        let store = InMemoryCredentialStore()
        let harness = ClientHarness(port: server.port, store: store)
        try await harness.client.start()
        let old = try #require(await store.load().session)

        try await Steps.register(harness.client, email: "keep@example.com")
        let new = try #require(await store.load().session)
        #expect(new.id == old.id && new.token != old.token)
        #expect(await store.load().deviceToken != nil)

        // A relaunch resumes the session from the store: no new session, the same State.
        let relaunched = ClientHarness(port: server.port, store: store)
        let resumed = try await relaunched.client.start()
        #expect(resumed == (await harness.client.state))
        #expect(relaunched.transport.sent.map(\.method) == ["GET"])

        // A client left with the old token finds the session gone for it, and starts a new one.
        let leftBehind = ClientHarness(port: server.port, store: InMemoryCredentialStore(Credentials(session: old)))
        let fresh = try await leftBehind.client.start()
        #expect(fresh.id != old.id)
        #expect(fresh.user == nil)
        #expect(leftBehind.transport.sent.map(\.method) == ["GET", "POST"])
        try await server.stop()
    }

    /// A password changed on one device ends the user's other sessions: the other device's
    /// client gets `401`, forgets the session (keeping its device token) and starts a new one.
    @Test func aSessionEndedElsewhereIsForgottenAndStartedAgain() async throws {
        let server = try await ServerProcess.start()
        let phone = ClientHarness(port: server.port)
        try await phone.client.start()
        try await Steps.register(phone.client, email: "two@example.com")
        let laptop = ClientHarness(port: server.port)
        try await laptop.client.start()
        try await laptop.client.send("logIn")
        try await laptop.client.send("submit", payload: ["email": "two@example.com", "password": .string(Steps.password)])
        #expect(await laptop.client.state?.user?.displayName == "Ada")
        let laptopDevice = try #require(await laptop.client.credentials.deviceToken)

        try await Steps.openSettings(phone.client)
        try await phone.client.send("changePassword")
        try await phone.client.send(
            "save", payload: ["currentPassword": .string(Steps.password), "newPassword": .string(Steps.newPassword)])

        let error = await #expect(throws: CoordinatorProblem.self) { try await laptop.client.send("refresh") }
        #expect(error?.kind == .unauthorized && error?.endsSession == true)
        #expect(await laptop.store.load() == Credentials(session: nil, deviceToken: laptopDevice))
        await #expect(throws: CoordinatorClientError.noSession) { try await laptop.client.send("refresh") }
        let fresh = try await laptop.client.start()
        #expect(fresh.topScreen?.name == "firstRun")
        #expect(try await laptop.client.send("logIn").topScreen?.name == "login")
        // The device token goes with each event.
        #expect(laptop.transport.sent.last?.header("Device-Token") == laptopDevice)
        try await server.stop()
    }

    /// Ending the session deletes it on the server: its token is dead, the client holds no
    /// State and no session (the device token stays), and `start()` begins a new one.
    @Test func endingTheSessionKillsItsToken() async throws {
        let server = try await ServerProcess.start()
        let harness = ClientHarness(port: server.port)
        try await harness.client.start()
        try await Steps.register(harness.client, email: "end@example.com")
        let ended = try #require(await harness.client.credentials.session)
        let device = await harness.client.credentials.deviceToken

        try await harness.client.endSession()
        #expect(harness.transport.sent.last?.method == "DELETE")
        #expect(await harness.client.state == nil)
        #expect(await harness.store.load() == Credentials(session: nil, deviceToken: device))
        let read = try await TestHTTP.request(
            port: server.port, "GET", "/v1/sessions/\(ended.id)", headers: ["Authorization": "Bearer \(ended.token)"])
        #expect(read.status == 401)
        let fresh = try await harness.client.start()
        #expect(fresh.id != ended.id && fresh.topScreen?.name == "firstRun")
        try await server.stop()
    }
}
