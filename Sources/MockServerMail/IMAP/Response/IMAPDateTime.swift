import Foundation

/// IMAP's `date-time` (RFC 9051 §9: `"17-Jul-1996 02:44:25 +0000"`), written without a formatter
/// (INTERNALDATE of every message of a large FETCH) and read with one (APPEND's date).
package enum IMAPDateTime {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `date` in UTC, quoted, as INTERNALDATE's value.
    package static func quoted(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        var days = seconds / 86_400, rest = seconds % 86_400
        if rest < 0 {
            rest += 86_400
            days -= 1
        }
        // Civil date from days since 1970-01-01 (the proleptic Gregorian calendar, era by era).
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\"\(two(day))-\(months[Int(month) - 1])-\(year) \(two(rest / 3_600)):\(two(rest / 60 % 60)):\(two(rest % 60)) +0000\""
    }

    /// Parses a date-time as APPEND gives it (the day may be space-padded); nil when it is not one.
    package static func parse(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "d-MMM-yyyy HH:mm:ss Z"
        return formatter.date(from: text.trimmingCharacters(in: .whitespaces))
    }
}
