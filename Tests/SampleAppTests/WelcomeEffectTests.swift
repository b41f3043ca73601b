import CoordinatorTesting
import Foundation
import Navigation
import Synchronization
import Testing

@testable import SampleApp

/// The welcome message, the sample app's effect, at the level of its flows: asked for with the
/// registration's commit, run by the (faked) relay, its result handed back to the app coordinator.
@Suite struct WelcomeEffectTests {
    static func welcome(of app: AppTester) -> WelcomeSent? {
        app.tree.coordinators(of: AppCoordinator.self).first?.welcome
    }

    @Test func registrationAsksForOneWelcomeWhoseResultComesBackAsAnEvent() async throws {
        var app = try await AppTester(AppTester.served(sendsWelcomes: true))
        try await app.register(email: "ada@example.com", name: "Ada")
        #expect(app.pendingEffects.count == 1)
        let asked = try #require(try app.pendingEffects.first?.request(as: SendWelcome.self))
        #expect(asked.email == "ada@example.com" && asked.displayName == "Ada")
        #expect(Self.welcome(of: app) == nil, "the result comes after the commit, not with it")

        let keys = KeyLog()
        app.fakeEffect(SendWelcome.self) { _, attempt in
            keys.note(attempt.idempotencyKey)
            return WelcomeSent(delivery: "sent")
        }
        let versionBefore = app.version
        let results = try await app.runEffects()
        #expect(results.map(\.name) == ["sendWelcome"])
        #expect(app.version == versionBefore + 1, "the result is an event of the session")
        #expect(Self.welcome(of: app) == WelcomeSent(delivery: "sent"))
        #expect(app.pendingEffects.isEmpty)
        #expect(keys.keys == [results[0].id])
        // Nothing more runs: the effect finished.
        #expect(try await app.runEffects().isEmpty)
    }

    @Test func aRetryableFailureStaysPendingAndAPermanentOneComesBackAsAFailure() async throws {
        var app = try await AppTester(AppTester.served(sendsWelcomes: true))
        try await app.register()
        let answers = KeyLog()
        app.fakeEffect(SendWelcome.self) { _, attempt in
            answers.note("attempt \(attempt.number)")
            if attempt.number == 1 { throw EffectFailure.retryable("the relay answered 503") }
            throw EffectFailure.permanent("the relay refused the message (400)")
        }
        #expect(try await app.runEffects().isEmpty)
        #expect(app.pendingEffects.map(\.attempts) == [1])
        #expect(Self.welcome(of: app) == nil)

        let results = try await app.runEffects()
        #expect(results.first?.outcome == .failed(reason: "the relay refused the message (400)", attempts: 2))
        #expect(Self.welcome(of: app) == WelcomeSent(delivery: "failed: the relay refused the message (400)"))
        #expect(answers.keys == ["attempt 1", "attempt 2"])
    }

    @Test func withoutARelayNoWelcomeIsAskedFor() async throws {
        var app = try await AppTester(AppTester.served())
        try await app.register()
        #expect(app.pendingEffects.isEmpty)
    }

    @Test func signingInAsksForNoWelcome() async throws {
        var first = try await AppTester(AppTester.served(sendsWelcomes: true))
        try await first.register()
        var second = try await first.newSession()
        try await second.send(FirstRunScreen.self, .logIn)
        try await second.send(
            LoginScreen.self, .submit(Credentials(email: "ada@example.com", password: AppTester.password)))
        #expect(second.tree.user?.displayName == "Ada")
        #expect(second.pendingEffects.isEmpty)
    }
}

/// What fakes saw, in order.
final class KeyLog: Sendable {
    private let noted = Mutex<[String]>([])
    var keys: [String] { noted.withLock { $0 } }
    func note(_ key: String) { noted.withLock { $0.append(key) } }
}
