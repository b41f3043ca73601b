import HTTPServer
import Testing

/// Field names compare case-insensitively, letters only.
@Suite struct HTTPHeadersTests {
    @Test func namesMatchWhateverTheCaseOfTheirLetters() {
        var headers = HTTPHeaders([("Content-Type", "application/json"), ("X-Trace-7", "a")])
        #expect(headers["content-type"] == "application/json")
        #expect(headers["CONTENT-TYPE"] == "application/json")
        #expect(headers["x-trace-7"] == "a")
        #expect(headers["Content-Typ"] == nil)
        #expect(headers["Content-Typf"] == nil)
        headers.set("content-TYPE", "text/plain")
        #expect(headers.fields.map(\.name) == ["X-Trace-7", "content-TYPE"])
    }

    @Test func onlyLettersFoldTheirCase() {
        // `[` and `{` (and `@` and `` ` ``) differ only in the bit that folds a letter's case.
        let headers = HTTPHeaders([("X-A[", "square"), ("X-@", "at")])
        #expect(headers["x-a["] == "square")
        #expect(headers["X-A{"] == nil)
        #expect(headers["x-`"] == nil)
        #expect(headers["X-@"] == "at")
    }
}
