@testable import HTTPServer
import Testing

/// A request's C strings become the usual texts when they are those exactly, and otherwise read
/// as `String(cString:)` reads them.
@Suite struct CommonTextsTests {
    private func read(_ bytes: [UInt8], among table: [(bytes: [UInt8], string: String)]) -> String {
        (bytes + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { CommonTexts.string($0.baseAddress!, among: table) }
        }
    }

    private func cString(_ bytes: [UInt8]) -> String {
        (bytes + [0]).withUnsafeBufferPointer { buffer in buffer.withMemoryRebound(to: CChar.self) { String(cString: $0.baseAddress!) } }
    }

    @Test func exactTextsAreFoundAndEveryOtherIsReadAsItIs() {
        #expect(read(Array("Content-Type".utf8), among: CommonTexts.headerNames) == "Content-Type")
        #expect(read(Array("Host".utf8), among: CommonTexts.headerNames) == "Host")
        for other in ["content-type", "Hos", "Hostx", "", "X-Ünïcode", "Content-Typ"] {
            #expect(read(Array(other.utf8), among: CommonTexts.headerNames) == other)
        }
        for invalid: [UInt8] in [[0xFF], [0x48, 0xC3], [0xE2, 0x82]] {
            #expect(read(invalid, among: CommonTexts.headerValues) == cString(invalid))
        }
    }
}
