import Foundation

/// An RFC 5322 date-time (§3.3, the obsolete forms' zone names included): `Tue, 1 Jul 2003 10:52:37
/// +0200`, the day of the week and the seconds optional, a two-digit year read as RFC 5322 §4.3 says.
package enum MIMEDate {
    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    static let zones: [String: Int] = ["ut": 0, "gmt": 0, "z": 0, "est": -5, "edt": -4, "cst": -6, "cdt": -5,
                                       "mst": -7, "mdt": -6, "pst": -8, "pdt": -7]

    /// The moment `text` names, or nil when it is not a date.
    package static func parse(_ text: String) -> Date? {
        var words = text.replacingOccurrences(of: ",", with: " ").split(whereSeparator: { $0 == " " || $0 == "\t" }).map { $0.lowercased() }
        if let first = words.first, first.first?.isLetter == true { words.removeFirst() }
        guard words.count >= 4, let day = Int(words[0]), let monthIndex = months.firstIndex(of: String(words[1].prefix(3))),
              var year = Int(words[2]) else { return nil }
        if words[2].count <= 2 { year += year < 50 ? 2000 : 1900 } else if words[2].count == 3 { year += 1900 }
        let time = words[3].split(separator: ":").map { Int($0) }
        guard time.count == 2 || time.count == 3, time.allSatisfy({ $0 != nil }) else { return nil }
        let hour = time[0]!, minute = time[1]!, second = time.count == 3 ? time[2]! : 0
        var offset = 0
        if words.count >= 5 {
            let zone = words[4]
            if let sign = zone.first, sign == "+" || sign == "-", zone.count == 5, let value = Int(zone.dropFirst()) {
                offset = (value / 100 * 3600 + value % 100 * 60) * (sign == "-" ? -1 : 1)
            } else if let hours = zones[zone] {
                offset = hours * 3600
            }
        }
        guard (1...31).contains(day), (1...9999).contains(year), (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else { return nil }
        // Days since 1970-01-01 of the civil date (Howard Hinnant's algorithm).
        let month = monthIndex + 1
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}
