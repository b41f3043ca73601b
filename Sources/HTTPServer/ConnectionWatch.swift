import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Deadlines for every open connection, enforced by one watchdog thread.
///
/// libmicrohttpd's own timeout is an idle timeout: it restarts on every byte, so a client that
/// trickles a header line every few seconds could hold its connection for ever. Here each
/// connection has a deadline by which its current phase must end:
/// - a new connection must deliver complete headers within `headerTimeout`;
/// - once the headers are in, the body must be complete within `requestTimeout`;
/// - while a handler works on the request there is no deadline (that time is the server's);
/// - after an answer, the next request's headers must be complete within `idle + header` timeouts.
///
/// The watchdog shuts down the socket of a connection past its deadline. libmicrohttpd then sees
/// the stream end and closes the connection itself; its close notification (which comes before
/// it closes the socket) removes the entry. Only the open notification adds an entry (a late
/// callback for a closed connection finds none to update), and `stop` empties the table before
/// the daemon closes its sockets: so a socket number is never shut down after its reuse.
final class ConnectionWatch: Sendable {
    private struct Limits: Sendable {
        let header: Duration
        let request: Duration
        let idle: Duration
    }

    private let limits: Limits
    /// Open connections by socket, and their deadline (nil while a handler has the request).
    private let deadlines = Mutex<[Int32: ContinuousClock.Instant?]>([:])
    private let stopped = Atomic<Bool>(false)
    private let wakeUp = DispatchSemaphore(value: 0)

    init(headerTimeoutSeconds: Int, requestTimeoutSeconds: Int, idleTimeoutSeconds: Int) {
        limits = Limits(
            header: .seconds(headerTimeoutSeconds), request: .seconds(requestTimeoutSeconds),
            idle: .seconds(idleTimeoutSeconds))
        let thread = Thread { [self] in
            while !stopped.load(ordering: .acquiring) {
                _ = wakeUp.wait(timeout: .now() + .milliseconds(250))
                enforce(now: .now)
            }
        }
        thread.name = "http-connection-watch"
        thread.start()
    }

    /// Stops enforcing at once (call it before the daemon closes its sockets) and lets the
    /// watchdog thread end on its own; nobody waits for it.
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        deadlines.withLock { $0.removeAll() }
        wakeUp.signal()
    }

    /// A connection opened: its headers are due within the header timeout.
    func opened(_ socket: Int32) {
        guard socket >= 0, !stopped.load(ordering: .acquiring) else { return }
        deadlines.withLock { $0[socket] = .some(.now + limits.header) }
    }

    /// A request's headers are in: its body is due within the request timeout.
    func headersReceived(_ socket: Int32) { update(socket, .now + limits.request) }

    /// The request is complete and a handler has it: no deadline until it is answered.
    func processing(_ socket: Int32) { update(socket, nil) }

    /// The answer went out: the next request's headers are due after idle + header timeouts.
    func answered(_ socket: Int32) { update(socket, .now + limits.idle + limits.header) }

    /// The connection is closed (its socket is not closed yet).
    func closed(_ socket: Int32) { _ = deadlines.withLock { $0.removeValue(forKey: socket) } }

    /// Changes the deadline of an open connection; a socket that is not open is left alone.
    private func update(_ socket: Int32, _ deadline: ContinuousClock.Instant?) {
        deadlines.withLock { deadlines in
            guard deadlines[socket] != nil else { return }
            deadlines[socket] = .some(deadline)
        }
    }

    /// Shuts down every socket past its deadline, under the lock so that none closes meanwhile.
    private func enforce(now: ContinuousClock.Instant) {
        deadlines.withLock { deadlines in
            for (socket, deadline) in deadlines {
                guard let deadline, deadline <= now else { continue }
                shutdown(socket, Int32(SHUT_RDWR))
                deadlines[socket] = .some(nil)  // shut once; the close notification removes it
            }
        }
    }
}
