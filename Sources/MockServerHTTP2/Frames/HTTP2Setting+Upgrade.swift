extension HTTP2Setting {
    /// The parameters an `HTTP2-Settings` field carries in an `Upgrade: h2c` request (RFC 7540
    /// §3.2.1): a SETTINGS frame's payload in base64url, padding optional, checked as a SETTINGS
    /// frame's are. Throws a connection error naming what is wrong (PROTOCOL_ERROR for text that is
    /// not base64url, the SETTINGS frame's own errors otherwise).
    package static func parameters(upgradeField value: String) throws(HTTP2Error) -> [HTTP2Setting] {
        guard let payload = base64URLDecoded(value) else {
            throw HTTP2Error(.protocolError, "HTTP2-Settings \(value.debugDescription) is not base64url")
        }
        var result: Result<HTTP2Frame, HTTP2Error> = .failure(HTTP2Error(.internalError, "unreachable"))
        payload.withUnsafeBytes { bytes in
            result = Result { () throws(HTTP2Error) in
                try HTTP2FrameReader.parse(HTTP2FrameHeader(length: bytes.count, type: .settings, streamID: 0), bytes)
            }
        }
        guard case .settings(let parameters, _) = try result.get().payload else { return [] }
        return parameters
    }

    /// The bytes of base64url text (RFC 4648 §5; `+` and `/` accepted too, `=` padding ignored), or
    /// nil when a character is not of the alphabet.
    static func base64URLDecoded(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        var bits = 0
        var bitCount = 0
        for character in text.utf8 where character != UInt8(ascii: "=") {
            let value: Int
            switch character {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = Int(character) - 65
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = Int(character) - 71
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = Int(character) + 4
            case UInt8(ascii: "-"), UInt8(ascii: "+"): value = 62
            case UInt8(ascii: "_"), UInt8(ascii: "/"): value = 63
            default: return nil
            }
            bits = bits << 6 | value
            bitCount += 6
            if bitCount >= 8 {
                bitCount -= 8
                bytes.append(UInt8(truncatingIfNeeded: bits >> bitCount))
                bits &= (1 << bitCount) - 1
            }
        }
        return bytes
    }
}
