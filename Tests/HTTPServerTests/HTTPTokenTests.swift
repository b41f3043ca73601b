@testable import HTTPServer
import Testing

/// A header name is a token: its bytes are RFC 9110's `tchar`s, checked against the grammar's list.
@Suite struct HTTPTokenTests {
    @Test func everyByteIsATokenByteExactlyWhenTheGrammarListsIt() {
        let listed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-.^_`|~".utf8)
        for byte in UInt8.min...UInt8.max {
            #expect(HTTPToken.isTokenByte(byte) == listed.contains(byte), "byte \(byte)")
        }
    }

    @Test func aTokenIsNonEmptyAndMadeOfTokenBytes() {
        #expect(HTTPToken.isToken("Content-Type"))
        #expect(HTTPToken.isToken("x~1"))
        #expect(!HTTPToken.isToken(""))
        #expect(!HTTPToken.isToken("Transfer-Encoding "))
        #expect(!HTTPToken.isToken("Host:"))
        #expect(!HTTPToken.isToken("Ünicode"))
    }
}
