import Foundation
import Testing
import MockServerCore

@Suite("RFC 1123 dates")
struct UTCTimeTests {
    @Test("known instants", arguments: [
        (Int64(0), "Thu, 01 Jan 1970 00:00:00 GMT"),
        (784_111_777, "Sun, 06 Nov 1994 08:49:37 GMT"),
        (951_782_400, "Tue, 29 Feb 2000 00:00:00 GMT"),
        (1_767_225_599, "Wed, 31 Dec 2025 23:59:59 GMT"),
        (-1, "Wed, 31 Dec 1969 23:59:59 GMT"),
        (4_102_444_800, "Fri, 01 Jan 2100 00:00:00 GMT"),
    ])
    func knownInstants(seconds: Int64, expected: String) {
        #expect(UTCTime.rfc1123(secondsSince1970: seconds) == expected)
    }

    @Test("agrees with Foundation's formatter over many days")
    func agreesWithFoundation() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        for seconds in stride(from: Int64(-86_400 * 400), to: 86_400 * 365 * 80, by: 86_400 * 13 + 3_607) {
            #expect(UTCTime.rfc1123(secondsSince1970: seconds) == formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds))))
        }
    }
}
