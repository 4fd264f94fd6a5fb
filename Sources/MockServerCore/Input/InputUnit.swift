/// One input unit (a line, a request) as the peer sent it.
public struct InputUnit: Sendable, Hashable, CustomStringConvertible {
    /// The bytes exactly as received, without the line terminator.
    public let bytes: [UInt8]
    /// The bytes decoded as UTF-8; invalid sequences become U+FFFD. Patterns match this text.
    public let text: String

    /// Wraps received bytes.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
        self.text = RepairedUTF8.decode(bytes)
    }

    /// Wraps text, stored as its UTF-8 bytes.
    public init(_ text: String) {
        self.bytes = Array(text.utf8)
        self.text = text
    }

    /// Whether ``bytes`` are valid UTF-8, so that ``text`` shows them without loss.
    public var isValidUTF8: Bool { text.utf8.count == bytes.count && text.utf8.elementsEqual(bytes) }

    /// The text, with control characters escaped, for logs and reports.
    public var description: String { text.escapedForDisplay }
}
