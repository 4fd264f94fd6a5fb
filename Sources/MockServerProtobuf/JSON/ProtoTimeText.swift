/// `google.protobuf.Timestamp` and `Duration` as the JSON mapping writes them, both ways, without
/// Foundation: civil dates from days since 1970 (proleptic Gregorian, as RFC 3339 counts them).
package enum ProtoTimeText {
    /// The first second a Timestamp may hold: 0001-01-01T00:00:00Z.
    package static let minimumSeconds: Int64 = -62_135_596_800
    /// The last: 9999-12-31T23:59:59Z.
    package static let maximumSeconds: Int64 = 253_402_300_799
    /// A Duration's bound either way, in seconds (10,000 years).
    package static let maximumDurationSeconds: Int64 = 315_576_000_000

    /// `seconds` and `nanos` since 1970 in UTC (`1972-01-01T10:00:20.021Z`, with 0, 3, 6 or 9
    /// fraction digits); `nil` when out of the range a Timestamp may hold.
    package static func timestamp(seconds: Int64, nanos: Int32) -> String? {
        guard seconds >= minimumSeconds, seconds <= maximumSeconds, nanos >= 0, nanos <= 999_999_999 else { return nil }
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civil(days: days)
        var text = digits(year, 4) + "-" + digits(month, 2) + "-" + digits(day, 2) + "T"
        text += digits(secondOfDay / 3600, 2) + ":" + digits(secondOfDay / 60 % 60, 2) + ":" + digits(secondOfDay % 60, 2)
        return text + fraction(nanos) + "Z"
    }

    /// The seconds and nanos of an RFC 3339 time (`Z` or an offset such as `+01:00`, up to 9 fraction
    /// digits); `nil` when it is not one or is out of range.
    package static func parseTimestamp(_ text: String) -> (seconds: Int64, nanos: Int32)? {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ count: Int) -> Int64? {
            guard index + count <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[index ..< index + count] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int64(byte - 0x30)
            }
            index += count
            return value
        }
        func expect(_ character: Character) -> Bool {
            guard index < bytes.count, bytes[index] == character.asciiValue else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2), expect("T"),
              let hour = number(2), expect(":"), let minute = number(2), expect(":"), let second = number(2) else { return nil }
        guard year >= 1, (1 ... 12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour < 24, minute < 60, second < 60 else { return nil }
        var nanos: Int64 = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var count = 0
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                guard count < 9 else { return nil }
                nanos = nanos * 10 + Int64(bytes[index] - 0x30)
                count += 1
                index += 1
            }
            guard count > 0 else { return nil }
            for _ in count ..< 9 { nanos *= 10 }
        }
        var offset: Int64 = 0
        if expect("Z") {
            offset = 0
        } else if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign: Int64 = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let hours = number(2), expect(":"), let minutes = number(2), hours < 24, minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        let seconds = days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        guard seconds >= minimumSeconds, seconds <= maximumSeconds else { return nil }
        return (seconds, Int32(nanos))
    }

    /// `seconds` and `nanos` as a Duration's JSON (`"1.5s"`, `"-0.000001s"`); `nil` when out of
    /// range or the two have different signs.
    package static func duration(seconds: Int64, nanos: Int32) -> String? {
        // `magnitude`, not `abs`: a peer's Int64.min has no absolute value.
        guard seconds.magnitude <= UInt64(maximumDurationSeconds), nanos.magnitude <= 999_999_999,
              !(seconds > 0 && nanos < 0), !(seconds < 0 && nanos > 0) else { return nil }
        let negative = seconds < 0 || nanos < 0
        return (negative ? "-" : "") + String(seconds.magnitude) + fraction(Int32(nanos.magnitude)) + "s"
    }

    /// The seconds and nanos of a Duration's JSON (`-?digits(.up to 9 digits)?s`); `nil` otherwise.
    package static func parseDuration(_ text: String) -> (seconds: Int64, nanos: Int32)? {
        var bytes = Array(text.utf8)[...]
        guard bytes.last == UInt8(ascii: "s") else { return nil }
        bytes = bytes.dropLast()
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes = bytes.dropFirst() }
        let whole = bytes.prefix { $0 >= 0x30 && $0 <= 0x39 }
        guard !whole.isEmpty, whole.count <= 12 else { return nil }
        var seconds: Int64 = 0
        for byte in whole { seconds = seconds * 10 + Int64(byte - 0x30) }
        bytes = bytes.dropFirst(whole.count)
        var nanos: Int64 = 0
        if !bytes.isEmpty {
            guard bytes.first == UInt8(ascii: ".") else { return nil }
            let fraction = bytes.dropFirst()
            guard !fraction.isEmpty, fraction.count <= 9, fraction.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            for byte in fraction { nanos = nanos * 10 + Int64(byte - 0x30) }
            for _ in fraction.count ..< 9 { nanos *= 10 }
        }
        guard seconds <= maximumDurationSeconds else { return nil }
        return negative ? (-seconds, Int32(-nanos)) : (seconds, Int32(nanos))
    }

    /// `.` and 3, 6 or 9 digits of `nanos`, or nothing for 0.
    private static func fraction(_ nanos: Int32) -> String {
        guard nanos != 0 else { return "" }
        if nanos % 1_000_000 == 0 { return "." + digits(Int64(nanos / 1_000_000), 3) }
        if nanos % 1000 == 0 { return "." + digits(Int64(nanos / 1000), 6) }
        return "." + digits(Int64(nanos), 9)
    }

    /// `value` in decimal with leading zeros to `width` digits.
    private static func digits(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    private static func isLeap(_ year: Int64) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a civil date (Howard Hinnant's `days_from_civil`).
    private static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The civil date of a day since 1970-01-01 (`civil_from_days`).
    private static func civil(days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
