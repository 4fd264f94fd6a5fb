import Foundation
import Testing
import MockServerHTTP

/// A prepared set of field names decides as `HTTPFieldText` does, name by name, for membership
/// and for fragments.
@Suite("HTTP field names")
struct HTTPFieldNamesTests {
    static let long = String(repeating: "x-long-", count: 10) + "name" // 74 bytes: past the length bits
    static let names = ["connection", "te", "Transfer-Encoding", "X-Caf\u{E9}", long, "", " padded "]
    static let fields = ["Connection", "CONNECTION", " tE\t", "te", "t", "tex", "", "   ", "transfer-encoding", "X-CAF\u{E9}", "x-caf\u{E9}",
                         "X-CAF\u{C9}", long.uppercased(), String(long.dropLast()), " \(long) ", "padded", " padded ", "@", "TE,", "Upgrade"]

    @Test("membership agrees with HTTPFieldText.equals(_:anyOf:)", arguments: fields)
    func contains(field: String) {
        let set = HTTPFieldNames(Self.names)
        #expect(set.contains(field) == HTTPFieldText.equals(field, anyOf: Self.names))
        // A bridged string has no contiguous UTF-8 of its own: the copy decides the same.
        #expect(set.contains(NSString(string: field).substring(from: 0)) == HTTPFieldText.equals(field, anyOf: Self.names))
    }

    @Test("names shorter than every name of a set are turned away by byte count before their bytes are reached; blanks around, any case, past 63 bytes", arguments: [
        "content-length", "Content-Length", "content-lengt", " content-length\t", "content-length ", "te", "T", "", " ", Self.long, " \(Self.long)",
        String(Self.long.dropLast()), Self.long.uppercased() + "\t", "x-caf\u{E9}", "X-CAF\u{C9}", "x-caf",
    ])
    func turnedAwayByCount(field: String) {
        for names in [["content-length"], ["Content-Length", "te"], [Self.long], ["x-caf\u{E9}"], ["connection", "keep-alive"]] {
            #expect(HTTPFieldNames(names).contains(field) == HTTPFieldText.equals(field, anyOf: names), "\(names)")
            #expect(HTTPFieldNames(names).contains(NSString(string: field).substring(from: 0)) == HTTPFieldText.equals(field, anyOf: names), "\(names)")
        }
    }

    @Test("fragments agree with HTTPFieldText.contains(_:fragment:)", arguments: fields + ["X-Api-Key", " x-api-key\t", "my-secret-TOKEN", "apikey"])
    func fragments(field: String) {
        let fragments = ["token", "secret", "api-key", "apikey", "", " a", Self.long, "\u{E9}", "@"]
        #expect(HTTPFieldNames(fragments).isFragment(of: field) == fragments.contains { HTTPFieldText.contains(field, fragment: $0) })
    }

    @Test("one pass for a mask's rule: named or holding a fragment, and not unmasked, as the three sets asked in turn", arguments: fields + ["X-Api-Key", " x-api-key\t", "My-Token", "Set-Cookie"])
    func maskRule(field: String) {
        let named = HTTPFieldNames(["set-cookie", "te", ""]), fragments = HTTPFieldNames(["token", "api", Self.long]), unless = HTTPFieldNames(["x-api-key", "TE"])
        let none = HTTPFieldNames([])
        for (names, pieces, except) in [(named, fragments, unless), (named, none, none), (none, fragments, none), (none, none, unless), (named, fragments, none)] {
            #expect(names.contains(field, orFragmentOf: pieces, unless: except)
                    == (!except.contains(field) && (names.contains(field) || pieces.isFragment(of: field))))
        }
    }

    @Test("a comma-separated list of names only, trimmed, in any case; empty elements skipped", arguments: [
        ("keep-alive", true),
        (" Keep-Alive ,TE,, upgrade", true),
        ("", true),
        (" , ", true),
        ("keep-alive, close", false),
        ("X-Private", false),
        ("keep-alives", false),
    ])
    func list(list: String, every: Bool) {
        #expect(HTTPFieldNames(["keep-alive", "te", "upgrade"]).containsEvery(inList: list) == every)
    }

    @Test("an empty set holds nothing; an empty name is a blank field's, never a fragment")
    func empty() {
        #expect(HTTPFieldNames([]).isEmpty)
        #expect(!HTTPFieldNames([]).contains(""))
        #expect(!HTTPFieldNames([]).isFragment(of: "token"))
        #expect(HTTPFieldNames([""]).contains(" "))
        #expect(!HTTPFieldNames([""]).contains("te"))
        #expect(!HTTPFieldNames([""]).isFragment(of: "te"))
        #expect(!HTTPFieldNames(["te"]).isEmpty)
    }
}
