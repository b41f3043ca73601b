import Foundation
import Navigation
import Testing

@testable import SampleApp

/// Posts carry their time as a `Date`, on the wire ISO 8601 in UTC; it must agree with Foundation's formatter.
@Suite struct TimestampTests {
    @Test(arguments: [Int64(0), 59, 951_782_400, 1_795_411_694, 4_102_444_799, 253_402_300_799])
    func agreesWithFoundation(_ seconds: Int64) {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        let wire = try? JSONValue.encode(PostStore.instant(seconds))
        #expect(wire == .string(formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))))
    }
}
