import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A TCP proxy in front of PostgreSQL that forwards every byte both ways and, once armed, cuts the
/// next connection that sends `COMMIT`: what a network failure at the worst moment does. With
/// `.afterCommit` PostgreSQL gets the `COMMIT` and commits, and its answer is lost; with
/// `.beforeCommit` it never gets it, and the transaction is rolled back when the connection ends;
/// with `.beforeCommitUnheard` it never gets it and never hears the connection end (a network
/// partition): its transaction stays open, holding the rows it wrote, until its process ends.
public final class CommitCutter: Sendable {
    public enum Cut: Sendable { case beforeCommit, afterCommit, beforeCommitUnheard }

    /// The port to give the server instead of PostgreSQL's.
    public let port: UInt16
    private let target: UInt16
    private let hidesServerProcess: Bool
    private let listener: Int32
    /// How to cut, and how many connections are still to be cut.
    private let armed = Mutex<(cut: Cut, count: Int)?>(nil)
    private let cutCount = Atomic<Int>(0)

    /// `COMMIT` as libpq sends it: a simple query message, `Q`, its length (11), the NUL-ended text.
    private static let commit: [UInt8] = [UInt8(ascii: "Q"), 0, 0, 0, 11] + Array("COMMIT".utf8) + [0]
    /// `COMMIT` as libpq sends it in a pipeline (after the statement it commits with): a Parse
    /// message, `P`, its length (14), the unnamed statement, the NUL-ended text, no parameter types.
    private static let pipelinedCommit: [UInt8] = [UInt8(ascii: "P"), 0, 0, 0, 14, 0] + Array("COMMIT".utf8) + [0, 0, 0]

    /// Listens on a free port of 127.0.0.1 and forwards to `target` there. With
    /// `hidesServerProcess`, it tells the client another server process than the one that runs its
    /// statements, as a pooler such as PgBouncer does.
    public init(target: UInt16, hidesServerProcess: Bool = false) throws {
        self.target = target
        self.hidesServerProcess = hidesServerProcess
        (listener, port) = try FreePort.listen(backlog: 64)
        let thread = Thread { [self] in acceptConnections() }
        thread.start()
    }

    /// Cuts the next `times` connections that send `COMMIT`, the way `cut` says; then forwards as before.
    public func arm(_ cut: Cut, times: Int = 1) { armed.withLock { $0 = (cut, times) } }

    /// Connections cut so far.
    public var cuts: Int { cutCount.load(ordering: .acquiring) }

    /// Stops accepting (open connections end when either side closes them).
    public func stop() { shutdown(listener, Int32(SHUT_RDWR)) }

    private func acceptConnections() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                close(listener)
                return
            }
            let server = Self.connect(port: target)
            guard server >= 0 else {
                close(client)
                continue
            }
            let link = Link(client: client, server: server, hidesServerProcess: hidesServerProcess)
            Thread { [self] in
                forwardQueries(link)
                link.finished()
            }.start()
            Thread {
                link.forwardAnswers()
                link.finished()
            }.start()
        }
    }

    /// Client to PostgreSQL, watching for `COMMIT` while armed.
    private func forwardQueries(_ link: Link) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        var recent: [UInt8] = []  // the last bytes sent on, so a message split across reads is found
        while true {
            let count = recv(link.client, &buffer, buffer.count, 0)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return link.end() }
            let chunk = Array(buffer[..<count])
            let seen = recent + chunk
            if let found = Self.findCommit(in: seen, endingPast: recent.count), let cut = takeCut() {
                // Sent on: what came before the `COMMIT`, and with `.afterCommit` the `COMMIT` too
                // (in a pipeline, the rest of what was sent with it: its Bind, Execute and Sync).
                let through = max(0, (cut == .afterCommit ? found.end : found.start) - recent.count)
                // Answers are dropped from before PostgreSQL can answer the `COMMIT`: none may slip
                // through to the client while the connection is being cut.
                link.dropAnswers()
                cutCount.add(1, ordering: .releasing)
                guard link.send(Array(chunk[..<through]), to: link.server) else { return link.end() }
                return link.cut(tellingServer: cut != .beforeCommitUnheard)
            }
            guard link.send(chunk, to: link.server) else { return link.end() }
            recent = Array(seen.suffix(Self.pipelinedCommit.count - 1))
        }
    }

    /// The cut to make now, if armed (counted off).
    private func takeCut() -> Cut? {
        armed.withLock { armed in
            guard let (cut, count) = armed else { return nil }
            armed = count > 1 ? (cut, count - 1) : nil
            return cut
        }
    }

    /// A socket connected to `port` of 127.0.0.1, or -1.
    private static func connect(port: UInt16) -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        if connected { return descriptor }
        close(descriptor)
        return -1
    }

    /// Where the first `COMMIT` message in `bytes` that ends past `sent` (the bytes already sent on,
    /// which may hold a whole earlier one) starts, and where what to send on with it ends: the
    /// message's end, or for a pipelined one the end of `bytes`.
    private static func findCommit(in bytes: [UInt8], endingPast sent: Int) -> (start: Int, end: Int)? {
        for (pattern, pipelined) in [(commit, false), (pipelinedCommit, true)] where bytes.count >= pattern.count {
            for start in 0...(bytes.count - pattern.count)
            where start + pattern.count > sent && bytes[start..<start + pattern.count].elementsEqual(pattern) {
                return (start, pipelined ? bytes.count : start + pattern.count)
            }
        }
        return nil
    }
}

/// One proxied connection: the client's socket and PostgreSQL's.
private final class Link: Sendable {
    let client: Int32
    let server: Int32
    /// Once cut, what PostgreSQL still says is read and dropped, never forwarded.
    private let isCut = Atomic<Bool>(false)
    private let finishedThreads = Atomic<Int>(0)
    private let hidesServerProcess: Bool

    init(client: Int32, server: Int32, hidesServerProcess: Bool) {
        self.client = client
        self.server = server
        self.hidesServerProcess = hidesServerProcess
    }

    /// PostgreSQL to client, until either side ends.
    func forwardAnswers() {
        var buffer = [UInt8](repeating: 0, count: 65536)
        var disguised = !hidesServerProcess
        while true {
            let count = recv(server, &buffer, buffer.count, 0)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return end() }
            if isCut.load(ordering: .acquiring) { continue }
            var chunk = Array(buffer[..<count])
            if !disguised { disguised = Self.disguiseServerProcess(in: &chunk) }
            guard send(chunk, to: client) else { return end() }
        }
    }

    /// Changes the process id of the BackendKeyData message (`K`, length 12, process id, secret
    /// key) in `bytes`, which PostgreSQL sends once, right after the login; true once done. (It
    /// comes in the login's first answer: a test proxy need not look across reads.)
    private static func disguiseServerProcess(in bytes: inout [UInt8]) -> Bool {
        let header: [UInt8] = [UInt8(ascii: "K"), 0, 0, 0, 12]
        guard bytes.count >= 13 else { return false }
        for start in 0...(bytes.count - 13) where bytes[start..<start + 5].elementsEqual(header) {
            bytes[start + 5] ^= 0x40  // another process id, of no process of this server
            return true
        }
        return false
    }

    func send(_ bytes: [UInt8], to socket: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// The client loses its connection now; PostgreSQL's answers are dropped until it closes its
    /// side. With `tellingServer`, it sees the end of its input after what was forwarded (a FIN,
    /// never a reset: it still reads and runs what it got); without, it waits for more.
    func cut(tellingServer: Bool) {
        dropAnswers()
        shutdown(client, Int32(SHUT_RDWR))
        if tellingServer { shutdown(server, Int32(SHUT_WR)) }
    }

    /// From now on, what PostgreSQL says is read and dropped, never forwarded.
    func dropAnswers() { isCut.store(true, ordering: .releasing) }

    /// Either side ended: both directions stop.
    func end() {
        shutdown(client, Int32(SHUT_RDWR))
        shutdown(server, Int32(SHUT_RDWR))
    }

    /// One direction's thread is done; the second one closes the sockets, which neither then uses.
    func finished() {
        guard finishedThreads.add(1, ordering: .acquiringAndReleasing).newValue == 2 else { return }
        close(client)
        close(server)
    }
}
