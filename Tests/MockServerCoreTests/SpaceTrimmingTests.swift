import Testing
import MockServerCore

/// The one trimmer: spaces and tabs at either end, never line endings or other characters.
@Suite("Trimming spaces")
struct SpaceTrimmingTests {
    @Test("strings and substrings", arguments: [
        (" \t a b \t", "a b"), ("", ""), (" \t ", ""), ("x", "x"), ("\r\nx\r\n", "\r\nx\r\n"), ("\u{A0}x\u{A0}", "\u{A0}x\u{A0}"), (" é ", "é"),
    ])
    func text(_ input: String, _ expected: String) {
        #expect(input.trimmingSpaces() == expected)
        #expect(("[" + input + "]").dropFirst().dropLast().trimmingSpaces() == expected)
    }

    @Test("bytes")
    func bytes() {
        #expect(Array(Array(" \tv a\t ".utf8)[...].trimmingSpaces()) == Array("v a".utf8))
        #expect(Array(" \t".utf8)[...].trimmingSpaces().isEmpty)
        let slice = Array("xx  a  yy".utf8)[2..<7]
        #expect(slice.trimmingSpaces().startIndex == 4)
    }
}
