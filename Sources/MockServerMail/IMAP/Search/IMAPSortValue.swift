/// One message's value for one SORT criterion, computed once before sorting: a number (a date as
/// seconds, a size), or text compared as `i;ascii-casemap` compares it (RFC 4790: ASCII letters
/// upper-cased, then octet by octet), which puts `[` after letters, as Dovecot does.
enum IMAPSortValue: Comparable {
    /// A date in seconds since 1970, or a size.
    case number(Double)
    /// Text as UTF-8, its ASCII letters upper-cased.
    case text([UInt8])

    /// The text value of `text`.
    init(text: String) {
        self = .text(text.utf8.map { $0 &- UInt8(ascii: "a") < 26 ? $0 - 0x20 : $0 })
    }

    static func < (lhs: IMAPSortValue, rhs: IMAPSortValue) -> Bool {
        switch (lhs, rhs) {
        case (.number(let left), .number(let right)): left < right
        case (.text(let left), .text(let right)): left.lexicographicallyPrecedes(right)
        case (.number, .text): true
        case (.text, .number): false
        }
    }
}
