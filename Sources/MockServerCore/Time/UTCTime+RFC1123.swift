extension UTCTime {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// Whole seconds since 1970 as an RFC 1123 date in GMT with English names
    /// (`Sun, 06 Nov 1994 08:49:37 GMT`): `$date` in scripts, and the form HTTP dates take.
    package static func rfc1123(secondsSince1970 seconds: Int64) -> String {
        let time = UTCTime(secondsSince1970: seconds)
        return "\(weekdays[time.weekday]), \(twoDigits(time.day)) \(time.monthAbbreviation) \(time.year) "
            + "\(twoDigits(time.hour)):\(twoDigits(time.minute)):\(twoDigits(time.second)) GMT"
    }
}
