import Foundation

/// The one form a date takes on the wire, in props and in snapshots: an RFC 3339 instant in UTC,
/// `2026-11-23T13:46:40Z`, with a fraction of a second only when the date has one, and then with
/// the fewest digits that read back the very same `Date` (`2026-11-23T13:46:40.25Z`; exact for
/// every date but those less than a second before 2001-01-01). Reading accepts any RFC 3339
/// instant (an offset such as `+02:00`, a lowercase `t` or `z`). The calendar is the proleptic
/// Gregorian one of ISO 8601 (as JavaScript's `Date`), also before 1582, where Foundation's
/// formatter switches to the Julian calendar.
package enum RFC3339 {
    /// Seconds from 1970-01-01 to 2001-01-01, `Date`'s reference date.
    private static let referenceEpoch = 978_307_200

    /// `date` as RFC 3339 in UTC; nil when its year is outside 0000–9999 or it is not finite.
    package static func string(from date: Date) -> String? {
        let interval = date.timeIntervalSinceReferenceDate
        guard interval.isFinite, abs(interval) < 4e11 else { return nil }
        let whole = interval.rounded(.down)
        let seconds = Int(whole) + referenceEpoch
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        guard (0...9999).contains(year) else { return nil }
        let fraction = interval - whole  // exact once |interval| ≥ 1
        // Written into one buffer: props carry dates on every event, and joining a dozen small
        // strings cost a few per cent of one.
        let text = String(unsafeUninitializedCapacity: 20) { buffer in
            func put(_ value: Int, at offset: Int, digits count: Int, then separator: Unicode.Scalar) {
                var rest = value
                for position in (offset..<offset + count).reversed() {
                    buffer[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
                buffer[offset + count] = UInt8(ascii: separator)
            }
            put(year, at: 0, digits: 4, then: "-")
            put(month, at: 5, digits: 2, then: "-")
            put(day, at: 8, digits: 2, then: "T")
            put(time / 3600, at: 11, digits: 2, then: ":")
            put(time / 60 % 60, at: 14, digits: 2, then: ":")
            put(time % 60, at: 17, digits: 2, then: "Z")
            return fraction > 0 ? 19 : 20
        }
        guard fraction > 0 else { return text }
        return text + "." + fractionDigits(fraction, whole: whole, interval: interval) + "Z"
    }

    /// The date `text` names, if it is an RFC 3339 date-time (`2026-11-23T13:46:40Z`,
    /// `2026-11-23T14:46:40.5+01:00`).
    package static func date(from text: String) -> Date? {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            index += count
            return value
        }
        func expect(_ characters: String) -> Bool {
            guard index < bytes.count, characters.utf8.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
            expect("Tt"), let hour = number(2), expect(":"), let minute = number(2), expect(":"),
            let second = number(2),
            (1...12).contains(month), (1...daysIn(month, of: year)).contains(day), hour < 24, minute < 60,
            second <= 60  // 60: a leap second, read as the next minute's first
        else { return nil }
        var fraction = 0.0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            guard index > start, let value = Double("0." + String(decoding: bytes[start..<index], as: UTF8.self))
            else { return nil }
            fraction = value
        }
        var offset = 0
        if expect("Zz") {
            offset = 0
        } else if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let hours = number(2), expect(":"), let minutes = number(2), hours < 24, minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        let seconds = days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSinceReferenceDate: Double(seconds - referenceEpoch) + fraction)
    }

    // MARK: - Parts

    /// The digits after the point of `fraction` (0 < fraction < 1): the fewest, up to nanoseconds,
    /// that give back `interval`; else every digit of its shortest exact form.
    private static func fractionDigits(_ fraction: Double, whole: Double, interval: Double) -> String {
        var scale = 1.0
        for count in 1...9 {
            scale *= 10
            let scaled = (fraction * scale).rounded()
            if scaled < scale, whole + scaled / scale == interval { return digits(Int(scaled), count) }
        }
        let text = fraction.description  // "0.123456789012", or "1.5e-10" for a small one
        guard let exponent = text.firstIndex(of: "e") else { return String(text.dropFirst(2)) }
        let mantissa = text[..<exponent].filter { $0 != "." }
        let power = Int(text[text.index(after: exponent)...]) ?? -1
        return String(repeating: "0", count: max(0, -power - 1)) + mantissa
    }

    /// `value` in decimal, zero-padded to `count` digits.
    private static func digits(_ value: Int, _ count: Int) -> String {
        let text = String(value)
        return text.count >= count ? text : String(repeating: "0", count: count - text.count) + text
    }

    private static func daysIn(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar. Years are counted from
    /// March, so that the leap day ends a year; 400 years (146,097 days) repeat exactly.
    static func days(year: Int, month: Int, day: Int) -> Int {
        let marchYear = month <= 2 ? year - 1 : year
        let cycle = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
        let yearOfCycle = marchYear - cycle * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfCycle = yearOfCycle * 365 + yearOfCycle / 4 - yearOfCycle / 100 + dayOfYear
        return cycle * 146_097 + dayOfCycle - 719_468
    }

    /// The date `days` after 1970-01-01 (the inverse of `days(year:month:day:)`).
    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let cycle = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfCycle = shifted - cycle * 146_097
        let yearOfCycle = (dayOfCycle - dayOfCycle / 1460 + dayOfCycle / 36_524 - dayOfCycle / 146_096) / 365
        let dayOfYear = dayOfCycle - (365 * yearOfCycle + yearOfCycle / 4 - yearOfCycle / 100)
        let marchMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * marchMonth + 2) / 5 + 1
        let month = marchMonth < 10 ? marchMonth + 3 : marchMonth - 9
        return (yearOfCycle + cycle * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
