import Foundation
import Navigation
import Secrets
import SessionStorage
import Store

/// What was prepared for one event before its commit: password work and any other slow work
/// its flow asked for (`Preparations`). Handed to each run of the event inside the commit,
/// with the log of the lasting writes of its latest run.
package struct PreparedWork: Sendable {
    var passwords: PreparedPasswords
    var results = Preparations()
    let lasting: LastingWritesLog
}

extension FlowRunner {
    /// Runs `attempt` until it stops asking for slow work, doing that work in between, outside
    /// the writer: password hashes on the hash pool, other work (`PreparationNeeded`) here. A few
    /// rounds at most, each adding a result; a flow that keeps asking is a bug and gets its error.
    ///
    /// `client` may have only `passwordJobsPerClient` password jobs in the pool at once; past
    /// that it gets `429` before anything is queued. The cap is kept here, not in the flow: a
    /// flow's own limits (a rate limiter's token) are rolled back with the run that asked for the
    /// work, so concurrent requests would all pass them before any hash is done.
    /// `lasting` keeps the lasting writes of the latest run (see `LastingWrites`).
    package nonisolated(nonsending) func withPreparations<T>(
        client: String, lasting: LastingWritesLog = LastingWritesLog(),
        _ attempt: nonisolated(nonsending) (PreparedWork) async throws -> T
    ) async throws -> T {
        var prepared = PreparedWork(passwords: PreparedPasswords(hasher: passwords.hasher), lasting: lasting)
        for _ in 0..<8 {
            do {
                return try await attempt(prepared)
            } catch let needed as PasswordWorkNeeded {
                let key = ClientKey.of(client)
                guard passwordJobs.begin(key) else { throw SessionError.tooManyPasswordChecks(retryAfterSeconds: 1) }
                defer { passwordJobs.end(key) }
                try await Traced.span("prepare: password work") {
                    try await PasswordHashPool.$client.withValue(key) {
                        try await prepared.passwords.perform(needed.work, on: passwords)
                    }
                }
            } catch let needed as PreparationNeeded {
                try await Traced.span("prepare: \(needed.key)") { try await prepared.results.perform(needed) }
            }
        }
        return try await attempt(prepared)
    }

    /// Whether `error` asks for slow work (`PasswordWorkNeeded`, `PreparationNeeded`) that
    /// `withPreparations` does before the event runs again, rather than ending the event.
    package static func asksForWork(_ error: any Error) -> Bool {
        error is PasswordWorkNeeded || error is PreparationNeeded
    }

    /// The environment coordinators see for one run of an event: the app's models bound to the
    /// `connection` it runs on (read-only, or the writer's), what was prepared, the run's lasting
    /// writes, and the directory of sessions by user. Built when a coordinator first asks for a
    /// dependency (`Environment.init(deferred:)`); the run's set of lasting writes is begun now,
    /// so that it replaces the last run's whether or not this run asks.
    package func environment(
        _ connection: any SQLConnection, _ prepared: PreparedWork, _ info: RequestInfo, session: String
    ) -> Environment {
        let lasting = prepared.lasting.begin(on: connection)
        let (makeEnvironment, tables) = (self.makeEnvironment, self.tables)
        return Environment(deferred: {
            var environment = makeEnvironment(connection, prepared.passwords, info)
            environment.set(prepared.results)
            // The app's factory may set them too; they are the same value.
            environment.set(prepared.passwords)
            environment.set(EventConnection(connection: connection))
            environment.set(lasting)
            environment.setSessionDirectory(
                StoreSessionDirectory(tables: tables, connection: connection, current: session, now: info.now))
            if let language = info.language { environment.set(EventLanguage(language)) }
            return environment
        })
    }
}

/// Sessions by user, read on the connection the event runs on.
/// `@unchecked Sendable`: it lives only within one run of an event, on the thread that runs it.
struct StoreSessionDirectory: SessionDirectory, @unchecked Sendable {
    let tables: any SessionPersistence
    let connection: any SQLConnection
    let current: String
    let now: Int64

    func sessions(ofUser id: Int64) throws -> [UserSession] {
        try tables.sessions(ofUser: id, now: now, on: connection).map { row in
            UserSession(
                label: Tokens.sha256(row.id).prefix(4).map { String(format: "%02x", $0) }.joined(),
                createdAt: row.createdAt, lastUsedAt: row.lastUsedAt, isCurrent: row.id == current)
        }
    }
}

/// The connection an event commits on, in its environment: what `EventModel`s are built on.
/// `@unchecked Sendable`: it lives only within one run of an event, on the thread that runs it.
package struct EventConnection: @unchecked Sendable {
    package let connection: any SQLConnection
}
