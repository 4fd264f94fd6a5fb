import MockServerCore

/// Formats instants as RFC 1123 dates (`Sun, 06 Nov 1994 08:49:37 GMT`), always GMT with English names.
///
/// Pure arithmetic on the civil calendar (``UTCTime``), so it needs no locale, formatter or time zone database.
package enum HTTPDate {
    /// Formats whole seconds since 1970-01-01T00:00:00Z.
    package static func format(secondsSince1970 seconds: Int64) -> String {
        UTCTime.rfc1123(secondsSince1970: seconds)
    }

    /// The seconds since 1970 of an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`, the form
    /// RFC 9110 requires senders to use); `nil` for anything else, which a recipient ignores.
    package static func parse(_ text: String) -> Int64? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", parts[0].hasSuffix(","),
              let day = Int64(parts[1]), let monthIndex = UTCTime.monthAbbreviations.firstIndex(of: String(parts[2])), let year = Int64(parts[3]) else { return nil }
        let clock = parts[4].split(separator: ":")
        guard clock.count == 3, let hour = Int64(clock[0]), let minute = Int64(clock[1]), let second = Int64(clock[2]),
              (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        return UTCTime.daysSince1970(year: year, month: Int64(monthIndex + 1), day: day) * 86_400 + hour * 3600 + minute * 60 + second
    }
}
