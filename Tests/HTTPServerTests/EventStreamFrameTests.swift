import HTTPServer
import Testing

/// An SSE frame's text: one `data:` line per line of the payload, an empty line at the end.
@Suite struct EventStreamFrameTests {
    private func text(_ id: Int?, _ event: String?, _ data: String) -> String {
        String(decoding: EventStream.frame(id: id, event: event, data: Array(data.utf8)), as: UTF8.self)
    }

    @Test func aJSONStateIsOneDataLine() {
        #expect(text(7, nil, #"{"a":1}"#) == "id: 7\ndata: {\"a\":1}\n\n")
    }

    @Test func everyLineOfTheDataGetsItsOwnDataLineEmptyOnesIncluded() {
        #expect(text(nil, "end", "a\nb\n") == "event: end\ndata: a\ndata: b\ndata: \n\n")
        #expect(text(nil, nil, "\n\nc") == "data: \ndata: \ndata: c\n\n")
        #expect(text(1, "x", "") == "id: 1\nevent: x\ndata: \n\n")
    }
}
