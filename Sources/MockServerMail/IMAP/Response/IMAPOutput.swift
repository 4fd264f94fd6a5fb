/// Bytes of IMAP responses being written (RFC 9051 §4, §7): atoms, numbers, strings as quoted or
/// literal (whichever the bytes allow), `NIL`, lists. Every response the server sends is built
/// here, so quoting is decided in one place.
///
/// ```swift
/// var output = IMAPOutput()
/// output.text("* LIST () \"/\" ")
/// output.astring(Array("Sent Items".utf8))   // "Sent Items"
/// output.crlf()
/// ```
package struct IMAPOutput: Sendable {
    /// The bytes written so far.
    package var bytes: [UInt8] = []

    package init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends `text`'s UTF-8 as it is (atoms, keywords, punctuation).
    package mutating func text(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Appends bytes as they are.
    package mutating func raw(_ raw: some Sequence<UInt8>) {
        bytes.append(contentsOf: raw)
    }

    /// Appends one byte (` `, `(`, `)`).
    package mutating func byte(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends a number in decimal.
    package mutating func number(_ value: some BinaryInteger) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// Appends CRLF.
    package mutating func crlf() {
        bytes.append(0x0D)
        bytes.append(0x0A)
    }

    /// Appends a string (RFC 9051 `string`): quoted when every byte may stand in a quoted string
    /// (7-bit, no CR, LF or NUL; `"` and `\` escaped) and it is short, a literal `{n}\r\n…` otherwise.
    /// With `utf8` (the client enabled UTF8=ACCEPT or IMAP4rev2), 8-bit bytes may be quoted too.
    package mutating func string(_ value: some Collection<UInt8>, utf8: Bool = false) {
        if value.count <= Self.longestQuoted, value.allSatisfy({ Self.quotable($0, utf8: utf8) }) {
            bytes.append(0x22)
            for byte in value {
                if byte == 0x22 || byte == 0x5C { bytes.append(0x5C) }
                bytes.append(byte)
            }
            bytes.append(0x22)
        } else {
            literal(value)
        }
    }

    /// Appends a string, or `NIL` for nil (RFC 9051 `nstring`).
    package mutating func nstring(_ value: (some Collection<UInt8>)?, utf8: Bool = false) {
        if let value { string(value, utf8: utf8) } else { text("NIL") }
    }

    /// Appends a string given as text, or `NIL` for nil.
    package mutating func nstring(_ value: String?, utf8: Bool = false) {
        nstring(value.map { Array($0.utf8) }, utf8: utf8)
    }

    /// Appends an astring (RFC 9051 `astring`): an atom when the bytes make one (a mailbox name
    /// `INBOX`, a flag-free word), a string otherwise.
    package mutating func astring(_ value: some Collection<UInt8>, utf8: Bool = false) {
        if !value.isEmpty, value.allSatisfy(Self.isAStringChar), !value.elementsEqual("NIL".utf8) {
            bytes.append(contentsOf: value)
        } else {
            string(value, utf8: utf8)
        }
    }

    /// Appends a literal: `{n}`, CRLF, the bytes.
    package mutating func literal(_ value: some Collection<UInt8>) {
        bytes.append(0x7B)
        number(value.count)
        bytes.append(0x7D)
        crlf()
        bytes.append(contentsOf: value)
    }

    /// The longest string written quoted; longer ones go as literals, as Dovecot does.
    static let longestQuoted = 1024

    /// Whether `byte` may stand in a quoted string.
    static func quotable(_ byte: UInt8, utf8: Bool) -> Bool {
        switch byte {
        case 0x00, 0x0A, 0x0D: false
        case 0x80...: utf8
        default: true
        }
    }

    /// Whether `byte` is an ASTRING-CHAR (RFC 9051 §9): an ATOM-CHAR or `]`.
    static func isAStringChar(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x21...0x7E:
            // atom-specials: ( ) { SP CTL % * " \ ; `]` is allowed in an astring.
            !(byte == 0x28 || byte == 0x29 || byte == 0x7B || byte == 0x25 || byte == 0x2A || byte == 0x22 || byte == 0x5C)
        default: false
        }
    }
}
