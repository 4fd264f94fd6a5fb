import Foundation

/// A calendar day, as SEARCH's date criteria compare them (RFC 9051 §6.4.4): days, not instants.
/// Counted from 1970-01-01 so that comparing two days is comparing two integers.
package struct IMAPSearchDay: Hashable, Comparable, Sendable {
    /// Days since 1970-01-01 (negative before it).
    package let daysSince1970: Int

    /// The day `daysSince1970` days after 1970-01-01.
    package init(daysSince1970: Int) {
        self.daysSince1970 = daysSince1970
    }

    /// The day written as an IMAP `date` (`1-Feb-1994`, `01-feb-1994`: one or two digits, the
    /// month's English abbreviation in any case, four digits), or nil. A day past its month's end
    /// (`31-Feb-2001`) runs into the next month, as Dovecot reads it.
    package init?(imapDate bytes: [UInt8]) {
        let pieces = bytes.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        guard pieces.count == 3, (1...2).contains(pieces[0].count), pieces[1].count == 3, pieces[2].count == 4,
              pieces[0].allSatisfy(Self.isDigit), pieces[2].allSatisfy(Self.isDigit),
              let day = Int(String(decoding: pieces[0], as: UTF8.self)), (1...31).contains(day),
              let year = Int(String(decoding: pieces[2], as: UTF8.self)) else { return nil }
        let month = String(decoding: pieces[1], as: UTF8.self)
        // MIMEDate reads `d mon yyyy hh:mm` and the month in any case; with no zone it is UTC.
        guard MIMEDate.months.contains(month.lowercased()),
              let date = MIMEDate.parse("\(day) \(month) \(year) 00:00") else { return nil }
        self.init(utc: date)
    }

    /// The day `date` falls on in `timeZone` (INTERNALDATE's day in the server's zone).
    package init(_ date: Date, in timeZone: TimeZone) {
        self.init(utc: date.addingTimeInterval(TimeInterval(timeZone.secondsFromGMT(for: date))))
    }

    /// The day of an RFC 5322 `Date` field as written, its time and zone disregarded (RFC 9051:
    /// SENTBEFORE, SENTON, SENTSINCE), or nil when the field is not a date.
    package init?(rfc5322 text: String) {
        var words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," || $0 == "\r" || $0 == "\n" })
        if let first = words.first, first.first?.isLetter == true { words.removeFirst() }
        // Without its zone, MIMEDate reads the field's own wall-clock time as UTC.
        guard words.count >= 4, let date = MIMEDate.parse(words.prefix(4).joined(separator: " ")) else { return nil }
        self.init(utc: date)
    }

    /// The UTC day of `date`.
    private init(utc date: Date) {
        let seconds = date.timeIntervalSince1970
        self.init(daysSince1970: Int((seconds / 86_400).rounded(.down)))
    }

    package static func < (lhs: IMAPSearchDay, rhs: IMAPSearchDay) -> Bool {
        lhs.daysSince1970 < rhs.daysSince1970
    }

    /// Whether `byte` is an ASCII digit.
    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
