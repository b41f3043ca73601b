import PostgresStore
import Synchronization
import TestSupport

/// Every notice coordinatord's nodes send on their channel of one database, as a listener of the
/// test's own hears them.
final class HeardNotices: Sendable {
    private let notices = Mutex<[String]>([])
    private let connected = Mutex(false)

    /// The notices heard so far, in the order they came.
    var all: [String] { notices.withLock { $0 } }

    /// Starts listening on database `url`; returns once the listener is connected (stop it when done).
    static func listening(to url: String) async throws -> (PostgresListener, HeardNotices) {
        let heard = HeardNotices()
        let listener = PostgresListener(
            url: url, channel: "coordinatord_live", retryInterval: .milliseconds(50),
            onNotice: { notice in heard.notices.withLock { $0.append(notice) } },
            onStatus: { up in heard.connected.withLock { $0 = up } })
        try await waitUntil("the test's listener connects") { heard.connected.withLock { $0 } }
        return (listener, heard)
    }
}
