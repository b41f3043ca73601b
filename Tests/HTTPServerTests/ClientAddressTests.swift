import CMicroHTTPD
import Foundation
import Testing

/// The client address libmicrohttpd reports is written without `inet_ntop` for IPv4; the text
/// must be what `inet_ntop` writes, for every width of octet.
@Suite struct ClientAddressTests {
    @Test(arguments: [0, 1, 9, 10, 99, 100, 199, 200, 249, 250, 255] as [UInt8])
    func ipv4TextIsWhatInetNtopWrites(octet: UInt8) {
        for octets in [[octet, 0, 0, 1], [127, octet, 255, 10], [10, 99, octet, 100], [255, 1, 0, octet]] as [[UInt8]] {
            let ours = octets.withUnsafeBytes { address in
                withUnsafeTemporaryAllocation(of: CChar.self, capacity: 16) { buffer in
                    coordinatord_ipv4_text(address.baseAddress!, buffer.baseAddress!)
                    return String(cString: buffer.baseAddress!)
                }
            }
            let theirs = octets.withUnsafeBytes { address in
                withUnsafeTemporaryAllocation(of: CChar.self, capacity: 16) { buffer in
                    _ = inet_ntop(AF_INET, address.baseAddress!, buffer.baseAddress!, 16)
                    return String(cString: buffer.baseAddress!)
                }
            }
            #expect(ours == theirs)
            #expect(ours == octets.map(String.init).joined(separator: "."))
        }
    }
}
