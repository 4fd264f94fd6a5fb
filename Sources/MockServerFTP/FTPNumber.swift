/// Decimal numbers in FTP command arguments, read strictly and without overflow: ASCII digits only
/// (no sign, no spaces, no `0x`), and a value past `maximum` is refused digit by digit, before
/// the arithmetic that would pass it.
package enum FTPNumber {
    /// The value of `text`, or `nil` when it is empty, holds anything but the digits `0`–`9`, or
    /// is greater than `maximum` (which must not be negative).
    ///
    /// ```swift
    /// FTPNumber.parse("65535", maximum: 65535)   // 65535
    /// FTPNumber.parse("+1", maximum: 255)        // nil
    /// ```
    package static func parse(_ text: some StringProtocol, maximum: Int) -> Int? {
        guard !text.utf8.isEmpty, maximum >= 0 else { return nil }
        var value = 0
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let digit = Int(byte - UInt8(ascii: "0"))
            // value * 10 + digit <= maximum, asked without computing it.
            guard digit <= maximum, value <= (maximum - digit) / 10 else { return nil }
            value = value * 10 + digit
        }
        return value
    }
}
