// CMicroHTTPD as well as Glibc: libmicrohttpd's header includes the socket headers (see FirstBytes).
import CMicroHTTPD
import CThreadName
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Deadlines for every open connection, enforced by one watchdog thread, and room kept free
/// for new clients.
///
/// libmicrohttpd's own timeout is an idle timeout: it restarts on every byte, so a client that
/// trickles a header line every few seconds could hold its connection for ever. Here each
/// connection has a deadline by which its current phase must end:
/// - a new connection must deliver complete headers within `headerTimeout`;
/// - once the headers are in, the body must be complete within `requestTimeout`;
/// - while a handler works on the request there is no deadline (that time is the server's);
/// - after an answer, the next request's headers must be complete within `idle + header` timeouts.
///
/// Deadlines alone let many slow clients, reconnecting as they are cut, keep every connection
/// slot busy, so that new clients wait in the listen queue. So the connections that wait for
/// their client (headers or body still arriving, or idle between requests) may together hold
/// at most `connectionLimit − reserve` slots: when a new connection would take more, the one
/// that has waited longest is shut down. A fresh client sends its request at once and is the
/// newest, so it gets in; only a request that is complete (a handler has it) is never cut.
///
/// The watchdog shuts down the socket of a connection past its deadline (or cut for room).
/// libmicrohttpd then sees the stream end and closes the connection itself; its close notification
/// (which comes before it closes the socket) removes the entry. Only the open notification adds an
/// entry (a late callback for a closed connection finds none to update), and `stop` empties the
/// table before the daemon closes its sockets: so a socket number is never shut down after its reuse.
final class ConnectionWatch: Sendable {
    private struct Limits: Sendable {
        let header: Duration
        let request: Duration
        let idle: Duration
        /// Open connections (not yet shut down) past which the longest-waiting one is cut.
        let openAtMost: Int
    }

    /// What an open connection is doing.
    private enum Phase {
        /// The client owes bytes (headers, body, or its next request) by `deadline`; `since` is
        /// when its request began (the connection opened, or the previous answer went out).
        case waiting(since: ContinuousClock.Instant, deadline: ContinuousClock.Instant)
        /// A handler has the complete request: no deadline, never cut for room.
        case processing
        /// Shut down; its close notification is due.
        case shut

        var isShut: Bool {
            if case .shut = self { true } else { false }
        }
    }

    /// The phases by socket number, in an array indexed by it: sockets are small numbers, reused,
    /// and a dictionary hashed the number a few times per request (about 2,000 instructions).
    private struct Phases {
        private var slots: [Phase?] = []

        subscript(socket: Int32) -> Phase? {
            get { socket >= 0 && Int(socket) < slots.count ? slots[Int(socket)] : nil }
            set {
                guard socket >= 0 else { return }
                let index = Int(socket)
                if index >= slots.count {
                    guard newValue != nil else { return }
                    slots.append(contentsOf: repeatElement(nil, count: index - slots.count + 1))
                }
                slots[index] = newValue
            }
        }

        mutating func updateValue(_ phase: Phase, forKey socket: Int32) -> Phase? {
            defer { self[socket] = phase }
            return self[socket]
        }

        mutating func removeValue(forKey socket: Int32) -> Phase? {
            defer { self[socket] = nil }
            return self[socket]
        }

        /// Every entry as it is now (changing the table meanwhile changes a copy).
        var entries: [(socket: Int32, phase: Phase)] {
            slots.indices.compactMap { index in slots[index].map { (Int32(index), $0) } }
        }
    }

    private struct Table {
        var phases = Phases()
        /// Entries not shut down.
        var open = 0
    }

    private let limits: Limits
    private let table = Mutex(Table())
    private let stopped = Atomic<Bool>(false)
    private let wakeUp = DispatchSemaphore(value: 0)

    /// - Parameter connectionLimit: libmicrohttpd's limit; an eighth of it (at least one) is kept free.
    init(headerTimeoutSeconds: Int, requestTimeoutSeconds: Int, idleTimeoutSeconds: Int, connectionLimit: Int) {
        limits = Limits(
            header: .seconds(headerTimeoutSeconds), request: .seconds(requestTimeoutSeconds),
            idle: .seconds(idleTimeoutSeconds), openAtMost: connectionLimit - max(1, connectionLimit / 8))
        let thread = Thread { [self] in
            coordinatord_name_this_thread("http-conn-watch")
            while !stopped.load(ordering: .acquiring) {
                _ = wakeUp.wait(timeout: .now() + .milliseconds(250))
                enforce(now: .now)
            }
        }
        thread.start()
    }

    /// Stops enforcing at once (call it before the daemon closes its sockets) and lets the
    /// watchdog thread end on its own; nobody waits for it.
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        table.withLock { $0 = Table() }
        wakeUp.signal()
    }

    /// A connection opened: its headers are due within the header timeout. If open connections
    /// now pass the bound, the one that has waited longest for its client is shut down.
    func opened(_ socket: Int32) {
        guard socket >= 0, !stopped.load(ordering: .acquiring) else { return }
        let now = ContinuousClock.now
        table.withLock { table in
            let previous = table.phases.updateValue(.waiting(since: now, deadline: now + limits.header), forKey: socket)
            // A previous entry cannot be (the close notification removes it); if one were, it is replaced.
            if let previous, !previous.isShut { table.open -= 1 }
            table.open += 1
            guard table.open > limits.openAtMost else { return }
            var oldest: (socket: Int32, since: ContinuousClock.Instant)?
            for (candidate, phase) in table.phases.entries where candidate != socket {
                guard case .waiting(let since, _) = phase else { continue }
                if oldest.map({ since < $0.since }) ?? true { oldest = (candidate, since) }
            }
            if let oldest { Self.shut(oldest.socket, in: &table) }
        }
    }

    /// A request's headers are in: its body is due within the request timeout.
    func headersReceived(_ socket: Int32) { wait(socket, limits.request, newRequest: false) }

    /// The request is complete and a handler has it: no deadline until it is answered.
    func processing(_ socket: Int32) {
        table.withLock { table in
            guard let phase = table.phases[socket], case .waiting = phase else { return }
            table.phases[socket] = .processing
        }
    }

    /// The answer went out: the next request's headers are due after idle + header timeouts.
    func answered(_ socket: Int32) { wait(socket, limits.idle + limits.header, newRequest: true) }

    /// The connection is closed (its socket is not closed yet).
    func closed(_ socket: Int32) {
        table.withLock { table in
            guard let phase = table.phases.removeValue(forKey: socket), !phase.isShut else { return }
            table.open -= 1
        }
    }

    /// An open connection (not shut down) now waits for its client, until `now + limit`. Its
    /// age restarts only with a new request: a slow client gains nothing by finishing its headers.
    private func wait(_ socket: Int32, _ limit: Duration, newRequest: Bool) {
        let now = ContinuousClock.now
        table.withLock { table in
            guard let phase = table.phases[socket], !phase.isShut else { return }
            var since = now
            if !newRequest, case .waiting(let began, _) = phase { since = began }
            table.phases[socket] = .waiting(since: since, deadline: now + limit)
        }
    }

    /// Shuts down every socket past its deadline, under the lock so that none closes meanwhile.
    private func enforce(now: ContinuousClock.Instant) {
        table.withLock { table in
            for (socket, phase) in table.phases.entries {
                guard case .waiting(_, let deadline) = phase, deadline <= now else { continue }
                Self.shut(socket, in: &table)
            }
        }
    }

    /// Shuts `socket` down once; the close notification removes its entry.
    private static func shut(_ socket: Int32, in table: inout Table) {
        shutdown(socket, Int32(SHUT_RDWR))
        table.phases[socket] = .shut
        table.open -= 1
    }
}
