import CoordinatorJSON
import Testing

/// Integers written into JSON bytes read as Swift prints them: the one- and two-digit shortcut
/// and the general path alike.
@Suite struct DecimalWritingTests {
    @Test func everyIntegerIsWrittenAsItsDecimal() {
        for value in Array(-1_001...1_001) + [Int.min, Int.min + 1, Int.max, 1_000_000_007] {
            var bytes: [UInt8] = [UInt8(ascii: "[")]
            bytes.appendDecimal(value)
            #expect(bytes == [UInt8(ascii: "[")] + Array(String(value).utf8), "\(value)")
        }
    }
}
