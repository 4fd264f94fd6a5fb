/// One input unit (a line, a request) as the peer sent it.
public struct InputUnit: Sendable, Hashable, CustomStringConvertible {
    /// The bytes exactly as received, without the line terminator.
    public let bytes: [UInt8]

    /// Wraps received bytes.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Wraps text, stored as its UTF-8 bytes.
    public init(_ text: String) {
        self.bytes = Array(text.utf8)
    }

    /// The bytes decoded as UTF-8; invalid sequences become U+FFFD. Patterns match this text.
    ///
    /// Decoded when read, not when the unit is made: most units are answered from their bytes
    /// alone (a pattern's literal prefix, a request's parsed head), and a decoded copy made for
    /// each cost about 900 instructions of a small HTTP/1.1 answer (callgrind, session 29). A
    /// reader that needs the text several times keeps it.
    public var text: String { RepairedUTF8.decode(bytes) }

    /// Whether ``bytes`` are valid UTF-8, so that ``text`` shows them without loss.
    public var isValidUTF8: Bool { String(exactUTF8: bytes) != nil }

    /// The text, with control characters escaped, for logs and reports.
    public var description: String { text.escapedForDisplay }
}
