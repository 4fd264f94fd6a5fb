/// A moment as UTC calendar fields, by pure arithmetic on the proleptic Gregorian calendar: no
/// locale, formatter or time-zone database. HTTP dates, FTP listings and WebDAV properties all
/// spell times from it.
package struct UTCTime: Equatable, Sendable {
    package let year: Int64
    /// 1 to 12.
    package let month: Int
    package let day: Int
    package let hour: Int
    package let minute: Int
    package let second: Int
    /// 0 for Sunday to 6 for Saturday.
    package let weekday: Int

    /// The fields of whole seconds since 1970-01-01T00:00:00Z.
    package init(secondsSince1970 seconds: Int64) {
        let days = Self.floorDivide(seconds, 86_400)
        let secondOfDay = Int(seconds - days * 86_400)
        // Howard Hinnant's `civil_from_days`.
        let shifted = days + 719_468
        let era = Self.floorDivide(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
        month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        hour = secondOfDay / 3600
        minute = secondOfDay / 60 % 60
        second = secondOfDay % 60
        weekday = Int(((days + 4) % 7 + 7) % 7) // 1970-01-01 was a Thursday
    }

    /// The days from 1970-01-01 to a date (Howard Hinnant's `days_from_civil`).
    package static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = floorDivide(shiftedYear, 400)
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// English month abbreviations (`Jan` … `Dec`), as HTTP dates and `ls -l` spell them.
    package static let monthAbbreviations = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The month's English abbreviation.
    package var monthAbbreviation: String { Self.monthAbbreviations[month - 1] }

    /// `value` as two digits, with a leading zero.
    package static func twoDigits(_ value: some BinaryInteger) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }
}
