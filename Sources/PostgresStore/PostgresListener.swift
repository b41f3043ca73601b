import CPostgres
import CThreadName
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A dedicated libpq connection that `LISTEN`s on one channel and hands each notification's
/// payload to `onNotice`, on a thread of its own (it blocks in `poll`, never on Swift's pool).
///
/// When the connection breaks it says so (`onStatus(false)`), reconnects (retrying every
/// `retryInterval`) and listens again, then says so (`onStatus(true)`): notifications sent while
/// it was away are lost, so the receiver catches up by reading what it watches.
package final class PostgresListener: Sendable {
    private let stopped = StopFlag()

    /// Starts listening at once (and keeps retrying if the database is down).
    /// - Parameter channel: a fixed identifier (a constant of the caller, never client input).
    package init(
        url: String, channel: String, retryInterval: Duration = .milliseconds(500),
        onNotice: @escaping @Sendable (String) -> Void, onStatus: @escaping @Sendable (Bool) -> Void
    ) {
        let thread = Thread { [stopped] in
            coordinatord_name_this_thread("pg-listener")
            Self.run(
                url: url, channel: channel, retryInterval: retryInterval, stopped: stopped, onNotice: onNotice,
                onStatus: onStatus)
        }
        thread.start()
    }

    /// Stops listening within a quarter of a second; the thread closes its connection and ends.
    package func stop() { stopped.value.store(true, ordering: .releasing) }

    private static func run(
        url: String, channel: String, retryInterval: Duration, stopped: StopFlag,
        onNotice: (String) -> Void, onStatus: (Bool) -> Void
    ) {
        var connection: OpaquePointer?
        var listening = false
        defer { if let connection { PQfinish(connection) } }
        while !stopped.value.load(ordering: .acquiring) {
            if connection == nil {
                connection = listen(url: url, channel: channel)
                guard connection != nil else {
                    Thread.sleep(forTimeInterval: retryInterval / .seconds(1))
                    continue
                }
                listening = true
                onStatus(true)
            }
            guard let current = connection else { continue }
            var descriptor = pollfd(fd: PQsocket(current), events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 250)
            if ready < 0 && errno == EINTR { continue }
            // Read what arrived; a broken connection fails here (or reports a bad status).
            if ready != 0 && (PQconsumeInput(current) == 0 || PQstatus(current) != CONNECTION_OK) {
                PQfinish(current)
                connection = nil
                if listening { onStatus(false) }
                listening = false
                continue
            }
            while let notice = PQnotifies(current) {
                let payload = String(cString: notice.pointee.extra)
                PQfreemem(notice)
                onNotice(payload)
            }
        }
    }

    /// A new connection listening on `channel`, or nil when the database cannot be reached.
    private static func listen(url: String, channel: String) -> OpaquePointer? {
        let keywords = ["connect_timeout", "application_name", "dbname"]
        let values = ["5", "coordinatord-listener", url]
        let connection = keywords.withCStringArray { keywords in
            values.withCStringArray { values in PQconnectdbParams(keywords, values, 1) }
        }
        guard let connection else { return nil }
        guard PQstatus(connection) == CONNECTION_OK else {
            PQfinish(connection)
            return nil
        }
        // `channel` is the caller's constant; LISTEN takes no bound parameter.
        let result = PQexec(connection, "LISTEN \(channel)")
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COMMAND_OK else {
            PQfinish(connection)
            return nil
        }
        return connection
    }
}

extension Array where Element == String {
    /// Calls `body` with these strings as a NULL-terminated array of C strings.
    fileprivate func withCStringArray<R>(_ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        let copies = map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { UnsafePointer($0) } + [nil]
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}

/// Set once to end the listening thread.
private final class StopFlag: Sendable {
    let value = Atomic<Bool>(false)
}
