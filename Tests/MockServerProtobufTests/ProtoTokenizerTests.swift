import MockServerProtobuf
import Testing

@Suite struct ProtoTokenizerTests {
    static func kinds(_ text: String) throws(ProtoError) -> [ProtoToken.Kind] {
        try ProtoTokenizer.tokens(of: Array(text.utf8), file: "t.proto").map(\.kind)
    }

    @Test func stringsDecodeEveryEscapeAndAdjacentOnesJoin() throws {
        let kinds = try Self.kinds(#"'a\n\t\\\'' "\x41\x4a\101\0\u00e9\U0001F600\?" "x""#)
        #expect(kinds == [.string(Array("a\n\t\\'".utf8) + Array("AJA".utf8) + [0] + Array("é😀?x".utf8)), .end])
        #expect(throws: ProtoError(file: "t.proto", line: 1, column: 2, reason: "invalid escape \\q")) { try Self.kinds(#""\q""#) }
        #expect(throws: ProtoError(file: "t.proto", line: 1, column: 3, reason: "\\x must be followed by a hex digit")) { try Self.kinds(#" "\xg""#) }
        #expect(throws: ProtoError(file: "t.proto", line: 1, column: 2, reason: "\\u must be followed by 4 hex digits")) { try Self.kinds(#""\u12""#) }
        #expect(throws: ProtoError(file: "t.proto", line: 1, column: 1, reason: "a string that is not closed on its line")) { try Self.kinds("\"abc") }
    }

    @Test func numbersKeepTheirTextAndValue() throws {
        let tokens = try ProtoTokenizer.tokens(of: Array("42 0x2A 052 1.5 .5 1e10 2E-3 0 18446744073709551616".utf8), file: "t.proto")
        #expect(tokens.map(\.kind) == [.integer("42"), .integer("0x2A"), .integer("052"), .float("1.5"), .float(".5"), .float("1e10"),
                                       .float("2E-3"), .integer("0"), .integer("18446744073709551616"), .end])
        #expect(tokens.prefix(3).map(\.integerValue) == [42, 42, 42])
        #expect(tokens[8].integerValue == nil)
        #expect(throws: ProtoError.self) { try Self.kinds("09") }
        #expect(throws: ProtoError.self) { try Self.kinds("12abc") }
        #expect(throws: ProtoError.self) { try Self.kinds("1e") }
    }

    @Test func linesAndColumnsCountCharactersAcrossCommentsAndCRLF() throws {
        let tokens = try ProtoTokenizer.tokens(of: Array("// é comment\r\n/* é\n */ \"é\" x;\r\n\ty".utf8), file: "t.proto")
        #expect(tokens.map { [$0.line, $0.column] } == [[3, 5], [3, 9], [3, 10], [4, 2], [4, 3]])
        #expect(tokens.map(\.kind) == [.string(Array("é".utf8)), .identifier("x"), .symbol(";"), .identifier("y"), .end])
    }
}
