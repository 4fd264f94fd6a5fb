import Testing
import MockServerCore

@Suite("Percent coding")
struct PercentCodingTests {
    private func decoded(_ text: String, plusAsSpace: Bool = false, strictness: PercentCoding.Strictness = .lenient) -> String? {
        PercentCoding.decode(Array(text.utf8), plusAsSpace: plusAsSpace, strictness: strictness).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test("escapes of either case become their bytes; other bytes stay", arguments: [
        ("a%20b", "a b"), ("%2F%2f", "//"), ("%C3%A9t%C3%A9", "été"), ("plain", "plain"), ("", ""), ("100%25", "100%"),
    ])
    func decodes(text: String, expected: String) {
        #expect(decoded(text) == expected)
        #expect(decoded(text, strictness: .strict) == expected)
    }

    @Test("a malformed escape stays as written when lenient and fails when strict", arguments: ["%", "%4", "a%zz", "%+f", "%-1", "50%"])
    func malformed(text: String) {
        #expect(decoded(text) == text)
        #expect(decoded(text, strictness: .strict) == nil)
    }

    @Test("+ is a space only in forms and queries")
    func plus() {
        #expect(decoded("a+b%2Bc", plusAsSpace: true) == "a b+c")
        #expect(decoded("a+b") == "a+b")
    }

    @Test("encoding escapes what is not allowed, with upper-case digits, and decodes back")
    func roundTrip() {
        let bytes: [UInt8] = Array(0...255)
        let encoded = PercentCoding.encode(bytes) { ($0 >= 0x61 && $0 <= 0x7A) }
        #expect(encoded.hasPrefix("%00%01"))
        #expect(encoded.contains("%7Babcdefghijklmnopqrstuvwxyz%7B") == false)
        #expect(encoded.contains("%60abcdefghijklmnopqrstuvwxyz%7B"))
        #expect(PercentCoding.decode(Array(encoded.utf8)) == bytes)
    }

    @Test("a URL reference keeps its escapes, query and fragment, and escapes what each part does not allow", arguments: [
        ("", "/"), ("/", "/"), ("a/b", "/a/b"), ("/a b/ü", "/a%20b/%C3%BC"), ("/100%", "/100%25"), ("/%4", "/%254"), ("/%41%zz", "/%41%25zz"),
        ("/p?q=a b&x=?/", "/p?q=a%20b&x=?/"), ("/p#f?g#h", "/p#f?g%23h"), ("/p?#", "/p?#"), ("/a:b@c;d=e~f", "/a:b@c;d=e~f"), ("/[v6]", "/%5Bv6%5D"),
    ])
    func urlReference(reference: String, expected: String) {
        #expect(PercentCoding.urlReference(reference) == expected)
    }
}
