import Testing

@testable import Navigation

/// The byte search behind the journal's confidential-value check and the erasure's scan: it
/// finds exactly what a plain scan finds.
@Suite struct ByteSearchTests {
    static func plainScan(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }

    @Test func findsWhatAPlainScanFinds() {
        var generator = SystemRandomNumberGenerator()
        // A small alphabet, so that partial matches are common.
        for _ in 0..<3000 {
            let haystack = (0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 97...99, using: &generator) }
            let needle = (0..<Int.random(in: 0...5, using: &generator)).map { _ in UInt8.random(in: 97...99, using: &generator) }
            #expect(haystack.containsBytes(needle) == Self.plainScan(haystack, needle), "\(haystack) \(needle)")
        }
    }

    @Test func findsTheMarkerAtEitherEndAndNotWhenCut() {
        let marker = Array(#""$confidential""#.utf8)
        #expect(Array(#""$confidential":1}"#.utf8).containsBytes(marker))
        #expect(Array(#"{"a":"$confidential""#.utf8).containsBytes(marker))
        #expect(!Array(#"{"a":"$confidentia"}"#.utf8).containsBytes(marker))
        #expect(!Array(#"$confidential""#.utf8).containsBytes(marker))
        #expect(Array("x".utf8).containsBytes(Array("x".utf8)))
        #expect(![UInt8]().containsBytes(Array("x".utf8)))
    }
}
