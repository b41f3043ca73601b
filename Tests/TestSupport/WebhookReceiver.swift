import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A stand-in for a service an effect calls (a mail relay, a payment service): a real HTTP/1.1
/// server on a free port of 127.0.0.1 that records every request and answers as the test says,
/// or holds the request unanswered (to kill the server that sent it meanwhile). It dedupes as a
/// well-behaved service does: `applied` counts distinct `Idempotency-Key`s it answered `2xx`.
public final class WebhookReceiver: Sendable {
    /// A request as it arrived.
    public struct Received: Sendable {
        public let path: String
        public let idempotencyKey: String?
        public let body: String
    }

    /// How to answer the next request.
    public enum Answer: Sendable {
        case status(Int)
        /// Keep the request open, unanswered, until `releaseHeld` or `stop`.
        case hold
    }

    public let port: UInt16
    private let listener: Int32
    private struct State {
        var received: [Received] = []
        var answers: [Answer] = []
        var held: [Int32] = []
        var appliedKeys: Set<String> = []
        var stopped = false
    }
    private let state = Mutex(State())

    public init() throws {
        (listener, port) = try FreePort.listen(backlog: 64)
        Thread.detachNewThread { [self] in acceptConnections() }
    }

    /// The URL of `path` on this receiver.
    public func url(_ path: String = "/hook") -> String { "http://127.0.0.1:\(port)\(path)" }

    /// The answers for the next requests, in order; `200` once they are used up.
    public func answerNext(_ answers: Answer...) { state.withLock { $0.answers += answers } }

    /// Every request so far, in order.
    public var received: [Received] { state.withLock { $0.received } }

    /// The distinct idempotency keys answered `2xx`: what the service applied.
    public var applied: Set<String> { state.withLock { $0.appliedKeys } }

    /// Answers every held request with `status` (to whoever still listens) and closes it.
    public func releaseHeld(status: Int = 200) {
        let held = state.withLock { state in
            defer { state.held = [] }
            return state.held
        }
        for socket in held { Self.answer(socket, status: status) }
    }

    public func stop() {
        state.withLock { $0.stopped = true }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        releaseHeld(status: 503)
    }

    private func acceptConnections() {
        while true {
            let socket = accept(listener, nil, nil)
            if socket < 0 {
                if errno == EINTR { continue }
                return
            }
            Thread.detachNewThread { [self] in serve(socket) }
        }
    }

    private func serve(_ socket: Int32) {
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let request = Self.readRequest(socket) else {
            close(socket)
            return
        }
        let answer = state.withLock { state -> Answer in
            state.received.append(request)
            let answer = state.answers.isEmpty ? .status(200) : state.answers.removeFirst()
            switch answer {
            case .hold where !state.stopped: state.held.append(socket)
            case .status(let status) where (200..<300).contains(status):
                if let key = request.idempotencyKey { state.appliedKeys.insert(key) }
            default: break
            }
            return answer
        }
        if case .status(let status) = answer { Self.answer(socket, status: status) }
    }

    private static func answer(_ socket: Int32, status: Int) {
        let body = #"{"ok":true}"#
        let text = "HTTP/1.1 \(status) X\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        _ = Array(text.utf8).withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        close(socket)
    }

    /// The request's head and body (by `Content-Length`), or nil when the client left first.
    private static func readRequest(_ socket: Int32) -> Received? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        func more() -> Bool {
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count > 0 { bytes += chunk[0..<count] }
            return count > 0
        }
        let separator = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        while headEnd == nil {
            guard more() else { return nil }
            headEnd = bytes.indices.dropLast(3).first { Array(bytes[$0..<$0 + 4]) == separator }
        }
        let head = String(decoding: bytes[..<headEnd!], as: UTF8.self).split(separator: "\r\n")
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "") ?? 0
        while bytes.count < headEnd! + 4 + length { guard more() else { return nil } }
        let path = head.first?.split(separator: " ").dropFirst().first.map(String.init) ?? ""
        return Received(
            path: path, idempotencyKey: headers["idempotency-key"],
            body: String(decoding: bytes[(headEnd! + 4)..<(headEnd! + 4 + length)], as: UTF8.self))
    }
}
