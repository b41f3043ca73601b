import Foundation
import Testing

@testable import SampleApp

/// Posts show their time as ISO 8601 in UTC, formatted by hand; it must agree with Foundation's formatter.
@Suite struct TimestampTests {
    @Test(arguments: [Int64(0), 59, 951_782_400, 1_795_411_694, 4_102_444_799, 253_402_300_799])
    func agreesWithFoundation(_ seconds: Int64) {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        #expect(PostStore.timestamp(seconds) == formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds))))
    }
}
