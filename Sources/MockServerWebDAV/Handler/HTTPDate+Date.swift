import Foundation
import MockServerFileSystem
import MockServerHTTP

extension HTTPDate {
    /// `date` as an RFC 1123 date, to the second.
    static func format(_ date: Date) -> String {
        format(secondsSince1970: Int64(date.timeIntervalSince1970.rounded(.down)))
    }

    /// An IMF-fixdate as a `Date`; `nil` when it is not one.
    static func date(_ text: String) -> Date? {
        let seconds: Int64? = parse(text)
        return seconds.map { Date(timeIntervalSince1970: TimeInterval($0)) }
    }
}
