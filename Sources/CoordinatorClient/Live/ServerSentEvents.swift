/// One Server-Sent Events frame: its `id`, `event` (nil for a plain message) and `data`.
public struct ServerSentEvent: Sendable, Hashable {
    public var id: String?
    public var event: String?
    public var data: String
}

/// Turns a stream's bytes into frames, as they arrive (the WHATWG event-stream format: fields
/// per line, a blank line ends a frame, a line starting with `:` is a comment: a heartbeat).
public struct ServerSentEventParser: Sendable {
    private var pending: [UInt8] = []
    private var frame = ServerSentEvent(data: "")
    private var hasData = false

    public init() {}

    /// The frames `bytes` completed.
    public mutating func feed(_ bytes: [UInt8]) -> [ServerSentEvent] {
        pending += bytes
        var frames: [ServerSentEvent] = []
        while let newline = pending.firstIndex(of: 10) {
            var line = pending[..<newline]
            if line.last == 13 { line = line.dropLast() }
            let text = String(decoding: line, as: UTF8.self)
            pending.removeFirst(newline + 1)
            if text.isEmpty {
                if hasData { frames.append(frame) }
                frame = ServerSentEvent(data: "")
                hasData = false
                continue
            }
            if text.hasPrefix(":") { continue }
            let (field, value): (Substring, Substring)
            if let colon = text.firstIndex(of: ":") {
                field = text[..<colon]
                let rest = text[text.index(after: colon)...]
                value = rest.hasPrefix(" ") ? rest.dropFirst() : rest
            } else {
                (field, value) = (Substring(text), "")
            }
            switch field {
            case "id": frame.id = String(value)
            case "event": frame.event = String(value)
            case "data":
                frame.data += (hasData ? "\n" : "") + value
                hasData = true
            default: break
            }
        }
        return frames
    }
}
