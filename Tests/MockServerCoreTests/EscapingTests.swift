import Testing
import MockServerCore

@Suite("Escaping")
struct EscapingTests {
    static let text = "say \"hi\"\\\r\n\t\u{1B}\u{7F} é"

    @Test("for display: no quotes; CR, LF, tab, backslash and control characters escaped, quotes kept")
    func display() {
        #expect(Self.text.escaped(.display) == #"say "hi"\\\r\n\t\u{1b}\u{7f} é"#)
        #expect("".escaped(.display) == "")
    }

    @Test("as JSON: quoted, with quotes escaped and control characters as \\u00XX")
    func json() {
        #expect(Self.text.escaped(.json) == #""say \"hi\"\\\r\n\t\u001b\#u{7F} é""#)
        #expect("".escaped(.json) == "\"\"")
    }

    @Test("as Swift: quoted, with quotes escaped and control characters as \\u{X}")
    func swift() {
        #expect(Self.text.escaped(.swift) == #""say \"hi\"\\\r\n\t\u{1b}\#u{7F} é""#)
    }
}
