import Foundation
import Navigation
import Testing

/// A `Double` is a number field (`1.5` is accepted), a `Date` a date-time field: an RFC 3339
/// string in UTC in props, payloads and snapshots, while snapshots stored with the seconds since
/// 2001 that `JSONEncoder` writes still restore.
@Suite struct NumberAndDateTests {
    struct Reading: Codable, Sendable, Hashable {
        var celsius: Double
        var at: Date
    }

    enum Thermometer: ScreenType {
        static let name = "thermometer"
        struct Props: Codable, Sendable {
            var celsius: Double
            var at: Date?
        }
        enum Output: ScreenOutput {
            case record(Reading)
            static let events: [OutputEvent<Output>] = [.event("record", Output.record)]
        }
    }

    struct Recorder: Coordinator {
        static let typeName = "Recorder"
        var screen: ScreenID?
        var lastReadingAt: Date?

        mutating func start(_ context: inout Context) throws {
            screen = try context.setRoot(Thermometer.self, Thermometer.Props(celsius: 0, at: nil))
        }

        mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
            guard case .record(let reading)? = try event.output(Thermometer.self), let screen else { return .unhandled }
            lastReadingAt = reading.at
            try context.update(screen, as: Thermometer.self) { $0 = Thermometer.Props(celsius: reading.celsius, at: reading.at) }
            return .handled
        }
    }

    static let app = NavigationApp(screens: [Thermometer.self], coordinators: [Recorder.self], root: { _ in Recorder() })

    /// 2026-11-23T13:46:40Z.
    static let instant = Date(timeIntervalSinceReferenceDate: 817_134_400)

    @Test func theCatalogDeclaresNumbersAndDateTimes() throws {
        let screen = Self.app.catalog()["screens"]?.arrayValue?.first
        #expect(
            screen?["props"]
                == [
                    ["name": "celsius", "type": "number", "optional": false, "accessibilityLabel": "Celsius"],
                    ["name": "at", "type": "date-time", "optional": true, "accessibilityLabel": "At"],
                ])
        #expect(
            screen?["events"]
                == [
                    [
                        "name": "record", "accessibilityLabel": "Record",
                        "fields": [
                            ["name": "celsius", "type": "number", "optional": false, "accessibilityLabel": "Celsius"],
                            ["name": "at", "type": "date-time", "optional": false, "accessibilityLabel": "At"],
                        ],
                    ]
                ])
    }

    @Test func aNumberFieldTakesAFractionAndADateTimeFieldAnRFC3339String() throws {
        var driver = try Driver(app: Self.app)
        try driver.send("record", ["celsius": 1.5, "at": "2026-11-23T14:46:40+01:00"])
        // The coordinator read a `Reading` and shows it back: 1.5, and the instant in UTC.
        #expect(
            driver.state
                == state(
                    layer("root", screen("s1", "thermometer", ["celsius": 1.5, "at": "2026-11-23T13:46:40Z"], events: ["record"])),
                    top: "s1"))

        try driver.send("record", ["celsius": -3, "at": "2026-11-23T13:46:40.25Z"])
        #expect(
            driver.state
                == state(
                    layer("root", screen("s1", "thermometer", ["celsius": -3, "at": "2026-11-23T13:46:40.25Z"], events: ["record"])),
                    top: "s1"))
    }

    @Test func wrongNumbersAndDatesAreRefusedPerField() throws {
        var driver = try Driver(app: Self.app)
        let dateMessage = "must be a date and time in RFC 3339 form, like 2026-11-23T13:46:40Z"
        #expect(
            throws: EventRejection.invalidPayload([
                FieldError(field: "celsius", message: "must be a number"), FieldError(field: "at", message: dateMessage),
            ])
        ) { try driver.send("record", ["celsius": "warm", "at": 817_134_400]) }
        for text in [
            "2026-11-23", "2026-11-23 13:46:40Z", "2026-11-23T13:46:40", "2026-13-01T00:00:00Z", "2026-02-29T00:00:00Z",
            "2026-11-23T24:00:00Z", "2026-11-23T13:46:40.Z", "2026-11-23T13:46:40+1:00", "yesterday",
        ] {
            #expect(throws: EventRejection.invalidPayload([FieldError(field: "at", message: dateMessage)]), "\(text)") {
                try driver.send("record", ["celsius": 1, "at": .string(text)])
            }
        }
    }

    @Test func datesEncodeAsRFC3339InUTCLikeFoundationsISO8601() throws {
        #expect(try JSONValue.encode(Date(timeIntervalSinceReferenceDate: 0)) == "2001-01-01T00:00:00Z")
        #expect(try JSONValue.encode(Self.instant) == "2026-11-23T13:46:40Z")
        #expect(try JSONValue.encode(Date(timeIntervalSinceReferenceDate: 12_345.5)) == "2001-01-01T03:25:45.5Z")
        #expect(try JSONValue.encode(Date(timeIntervalSinceReferenceDate: -0.5)) == "2000-12-31T23:59:59.5Z")
        #expect(try JSONValue.encode(Date.distantFuture) == "4001-01-01T00:00:00Z")
        // ISO 8601's calendar is the Gregorian one back to year 0 (JavaScript's and Python's too):
        // `distantPast` is 0001-01-01 of the Julian calendar.
        #expect(try JSONValue.encode(Date.distantPast) == "0000-12-30T00:00:00Z")
        #expect(try JSONValue.encode(Date(timeIntervalSinceReferenceDate: -40_000_000_000)) == "0733-06-15T00:53:20Z")
        #expect(throws: EncodingError.self) { try JSONValue.encode(Date(timeIntervalSince1970: 1e12)) }

        // Whole seconds from 1583 (where Foundation's formatter is Gregorian too) to 9999, as it writes them.
        let formatter = ISO8601DateFormatter()
        var random = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let seconds = Int64.random(in: -13_000_000_000...250_000_000_000, using: &random)
            let date = Date(timeIntervalSinceReferenceDate: Double(seconds))
            #expect(try JSONValue.encode(date) == .string(formatter.string(from: date)))
        }
    }

    @Test func everyDateReadsBackAsTheSameDate() throws {
        var random = SystemRandomNumberGenerator()
        var dates = [Date(), Date(timeIntervalSinceReferenceDate: 0.1), Date(timeIntervalSinceReferenceDate: -1.000_000_001)]
        while dates.count < 2000 {
            // Less than a second before 2001 has no exact form (see `RFC3339`).
            let interval = Double.random(in: -6e10...6e10, using: &random)
            if abs(interval) >= 1 { dates.append(Date(timeIntervalSinceReferenceDate: interval)) }
        }
        for date in dates {
            let encoded = try JSONValue.encode(date)
            #expect(try JSONValue.decode(Date.self, from: encoded) == date, "\(encoded.serializedString)")
        }
        // What a client wrote stays as it wrote it.
        let written = try JSONValue.decode(Date.self, from: "2026-11-23T13:46:40.123Z")
        #expect(try JSONValue.encode(written) == "2026-11-23T13:46:40.123Z")
    }

    @Test func datesReadEveryRFC3339FormAndTheSecondsSince2001OfOlderSnapshots() throws {
        for text in ["2026-11-23T13:46:40Z", "2026-11-23t13:46:40z", "2026-11-23T15:16:40+01:30", "2026-11-23T08:46:40-05:00"] {
            #expect(try JSONValue.decode(Date.self, from: .string(text)) == Self.instant, "\(text)")
        }
        #expect(try JSONValue.decode(Date.self, from: 817_134_400) == Self.instant)
        #expect(try JSONValue.decode(Date.self, from: 12_345.5) == Date(timeIntervalSinceReferenceDate: 12_345.5))
        #expect(throws: DecodingError.self) { try JSONValue.decode(Date.self, from: "2026-02-30T00:00:00Z") }
        #expect(throws: DecodingError.self) { try JSONValue.decode(Date.self, from: true) }
    }

    @Test func aSnapshotStoredWithNumericDatesRestoresAndIsWrittenBackAsRFC3339() throws {
        var driver = try Driver(app: Self.app)
        try driver.send("record", ["celsius": 1.5, "at": "2026-11-23T13:46:40Z"])
        let current = String(decoding: try Self.app.snapshot(driver.tree), as: UTF8.self)
        #expect(current.contains(#""lastReadingAt":"2026-11-23T13:46:40Z""#))
        // The coordinator's state as a build that wrote dates as `JSONEncoder` does stored it.
        let older = current.replacingOccurrences(
            of: #""lastReadingAt":"2026-11-23T13:46:40Z""#, with: #""lastReadingAt":817134400"#)
        #expect(older != current)
        let restored = try Self.app.decodeSnapshot(Array(older.utf8))
        #expect(restored == driver.tree)
        #expect(String(decoding: try Self.app.snapshot(restored), as: UTF8.self) == current)
    }
}
