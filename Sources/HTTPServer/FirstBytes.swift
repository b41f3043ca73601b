// libmicrohttpd's header includes <sys/socket.h>: whichever of Glibc and CMicroHTTPD is built
// first owns its declarations (MSG_PEEK, AF_INET6), so this file imports both.
import CMicroHTTPD

#if canImport(Glibc)
import Glibc
#endif

/// A look at what a new connection sent first, before libmicrohttpd reads it.
///
/// libmicrohttpd waits for a line end before it parses anything, so a TLS ClientHello sent to
/// the plain port (no line end, and the client waits for the server's answer) used to hold its
/// connection until the header timeout. The listening socket defers accepting until the first
/// bytes are in (`coordinatord_mhd_defer_accept`), and the connection-notify callback runs
/// before libmicrohttpd's first read, so the first byte can be peeked there and such a
/// connection closed at once.
enum FirstBytes {
    /// True when the connection's first byte (peeked, not consumed) cannot begin an HTTP/1.x
    /// request: a TLS handshake record (0x16), SSLv2 (0x80…), or any other binary protocol.
    /// False when nothing has arrived yet (the client waited past the deferral): that is left
    /// to the header timeout.
    static func cannotBeHTTP(socket: Int32) -> Bool {
        var byte: UInt8 = 0
        guard recv(socket, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT)) == 1 else { return false }
        // A request line begins with a method (a token); libmicrohttpd also skips empty lines before one.
        return !(HTTPToken.isTokenByte(byte) || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n"))
    }
}
