import Foundation
import Testing
import TestSupport
import MockServerHTTP
import MockServerMockData
import MockServerCore

/// SHA-256, bencoding, the JSON reader and the file names they make, against fixed vectors.
@Suite("Mock-data naming", .cpuBound)
struct MockDataNamingTests {
    private func request(_ text: String) throws -> HTTPMockRequest {
        // CRLF in the head only: the body is sent as written.
        let parts = text.components(separatedBy: "\n\n")
        let head = parts[0].replacingOccurrences(of: "\n", with: "\r\n") + "\r\n\r\n"
        return try #require(HTTPMockRequest(parsing: Array((head + parts.dropFirst().joined(separator: "\n\n")).utf8)))
    }

    @Test("SHA-256: the NIST vectors, a million a's, and every padding boundary fed in pieces")
    func sha256() {
        #expect(SHA256.hex(of: Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(of: [UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex(of: Array("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu".utf8))
            == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
        #expect(SHA256.hex(of: [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        // Lengths around the 55/56/64-byte padding edges, from Python's hashlib.
        let expected = [
            55: "576a1bf8d4478657e6dc4af9398544765c2a92cde28478b019235cfed315fc09",
            56: "9b20501dfd1d99161c257950f3444f3e49230c351c5c8e0943ef369f85f5205d",
            63: "30b345906b493f06f69444b6521113511c242f30e29840462950035043682f1e",
            64: "d8bc63b4fc1156e5e7d95a418b9bf54cd3174bedbc2db40f74895349b229b3c0",
            65: "1ee23b0fbcaecc1aff4a9e8f1645f35ab2c8e13609cd73b68df8b5e3f63ce073",
            119: "7a6589821178918ca8d9edaba5abfc1e9b2669564f4469b66885379c1530b2c8",
            120: "655250427d56b1b0eeb8497d21428704273458a01772d6881b65c0abac0f8a98",
        ]
        for (count, hex) in expected {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 * 7) }
            #expect(SHA256.hex(of: bytes) == hex, "\(count) bytes")
            for piece in [1, 3, 63, 64] {
                var digest = SHA256()
                var rest = bytes[...]
                while !rest.isEmpty {
                    digest.update(rest.prefix(piece))
                    rest = rest.dropFirst(piece)
                }
                #expect(digest.finalize() == { var whole = SHA256(); whole.update(bytes); return whole.finalize() }(), "\(count) bytes in \(piece)-byte pieces")
            }
        }
    }

    private func bencoded(_ json: String) throws -> String? {
        try Bencoding.encode(JSONReader.parse(Array(json.utf8), options: .strict)).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test("bencoding, worked by hand: nesting, arrays, numbers, booleans, null, unicode, empty containers")
    func bencoding() throws {
        #expect(try bencoded(#"{"email":"user@example.com","password":"password"}"#) == "d5:email16:user@example.com8:password8:passworde")
        // Keys sorted by their bytes, whatever the order written; nested containers.
        #expect(try bencoded(#"{"b":[1,"x",{"d":-3,"c":0}],"a":{}}"#) == "d1:ade1:bli1e1:xd1:ci0e1:di-3eeee")
        #expect(try bencoded("[]") == "le")
        #expect(try bencoded("{}") == "de")
        #expect(try bencoded(#""""#) == "0:")
        #expect(try bencoded("[true,false]") == "li1ei0ee")
        #expect(try bencoded("12345678901234567890123") == "i12345678901234567890123e")
        #expect(try bencoded("-0") == "i0e")
        #expect(try bencoded("1.0") == "i1e")
        #expect(try bencoded("2.50e1") == "i25e")
        #expect(try bencoded("1e3") == "i1000e")
        #expect(try bencoded("-120E-1") == "i-12e")
        #expect(try bencoded("1.5") == nil)
        #expect(try bencoded("null") == nil)
        #expect(try bencoded(#"{"a":[null]}"#) == nil)
        // Lengths count UTF-8 bytes; "é" (2 bytes) sorts after "z" (1 byte, 0x7A).
        #expect(try bencoded(#"{"z":"é","é":"\ud83d\ude00"}"#) == "d1:z2:é2:é4:😀e")
        // A repeated key keeps its last value.
        #expect(try bencoded(#"{"k":1,"k":2}"#) == "d1:ki2ee")
    }

    @Test("the JSON reader says where a document goes wrong", arguments: [
        ("{\"a\":1,}", 1, 8), ("[1,\n 2,\n x]", 3, 2), ("\"open", 1, 6), ("01", 1, 1), ("{\"a\" 1}", 1, 6),
        ("[\"\\q\"]", 1, 3), ("\"\\ud800\"", 1, 8), ("", 1, 1), ("1 2", 1, 3), ("\"tab\there\"", 1, 5),
    ])
    func jsonErrors(text: String, line: Int, column: Int) {
        #expect(throws: JSONReader.Failure.self) { try JSONReader.parse(Array(text.utf8), options: .strict) }
        do {
            _ = try JSONReader.parse(Array(text.utf8), options: .strict)
        } catch {
            #expect(error.location == JSONNode.Location(line: line, column: column), "\(text.debugDescription): \(error)")
        }
    }

    @Test("the seed's four requests give the names it prints, fallbacks and wildcards included")
    func seedExamples() throws {
        let page = try request("GET /foo/?page=2 HTTP/1.1\nHost: example.com\nAccept: */*\n\n")
        #expect(MockDataNaming.baseNames(for: page) == ["GET|-foo-?page=2"])
        #expect(MockDataNaming.baseNames(for: page, allowsWildcards: true) == ["GET|-foo-?page=2", "GET|-foo-?*"])

        // The seed prints a stray `"` after the query; its hash (and VOK's own fixture) is of the query without it.
        let query = (["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen",
                      "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty", "twentyone", "twntytwo",
                      "twentythree", "twentyfour", "twentyfive"].enumerated().map { "\($1)=\($0 + 1)" }).joined(separator: "&")
        let details = try request("GET /details?\(query) HTTP/1.1\nHost: example.com\nAccept: */*\n\n")
        #expect(MockDataNaming.baseNames(for: details, allowsWildcards: true)
            == ["GET|-details?fb73ef92daa60d3b526724dd5f50738e8477d10e0edcf96ce79794666f6b0c0e", "GET|-details?*"])

        let form = try request("""
            POST /login/ HTTP/1.1
            Host: example.com
            Content-Type: application/x-www-form-urlencoded; charset=utf-8
            Content-Length: 42

            email=user%40example.com&password=password
            """)
        #expect(MockDataNaming.baseNames(for: form, allowsWildcards: true) == [
            "POST|-login-|email=user%40example.com&password=password",
            "POST|-login-|169d720631e603967135cfce10d235e94aac22b87500ea09d1be295f5b300dca",
            "POST|-login-|*",
        ])

        let json = try request("""
            POST /login/ HTTP/1.1
            Host: example.com
            Content-Type: application/json
            Content-Length: 50

            {"email":"user@example.com","password":"password"}
            """)
        #expect(MockDataNaming.baseNames(for: json, allowsWildcards: true) == [
            "POST|-login-|d5-email16-user@example.com8-password8-passworde",
            "POST|-login-|236a9780f782b62654f6caf7c4614e47b15800c087a9d43c87c47164617a74f0",
            "POST|-login-|*",
        ])
        #expect(MockDataNaming.fileNames(for: json).prefix(2)
            == ["POST|-login-|d5-email16-user@example.com8-password8-passworde.http", "POST|-login-|d5-email16-user@example.com8-password8-passworde.json"])
    }

    @Test("names beyond the seed: query and body wildcards, empty bodies, escapes, paths, long names")
    func otherNames() throws {
        let both = try request("PUT /a:b/c?x=1 HTTP/1.1\nContent-Type: application/json\nContent-Length: 13\n\n{\"k\": \"a b\"}\n")
        let hash = SHA256.hex(of: Array("{\"k\": \"a b\"}\n".utf8))
        #expect(MockDataNaming.baseNames(for: both, allowsWildcards: true) == [
            "PUT|-a-b-c?x=1|d1-k3-a%20be", "PUT|-a-b-c?x=1|\(hash)", "PUT|-a-b-c?x=1|*",
            "PUT|-a-b-c?*|d1-k3-a%20be", "PUT|-a-b-c?*|\(hash)", "PUT|-a-b-c?*|*",
        ])
        // A POST with no body is named by the hash of nothing; a GET with no body has no body part.
        let empty = try request("POST /ping HTTP/1.1\nContent-Length: 0\n\n")
        #expect(MockDataNaming.baseNames(for: empty) == ["POST|-ping|e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"])
        #expect(MockDataNaming.baseNames(for: empty, allowsWildcards: true).last == "POST|-ping|*")
        // `|` and non-ASCII in a JSON body are percent-encoded; `@ : / ?` are kept (then `:` and `/` become `-`).
        let escaped = try request("POST / HTTP/1.1\nContent-Type: application/vnd.api+json\nContent-Length: 25\n\n{\"p\":\"a|b/c?d@é%\"}\n   ")
        #expect(MockDataNaming.baseNames(for: escaped).first == "POST|-|d1-p11-a%7Cb-c?d@%C3%A9%25e")
        // Invalid JSON, or a body that is not form text, is named by its hash alone.
        let broken = try request("POST / HTTP/1.1\nContent-Type: application/json\nContent-Length: 3\n\n{x}")
        #expect(MockDataNaming.baseNames(for: broken) == ["POST|-|\(SHA256.hex(of: Array("{x}".utf8)))"])
        // The path is percent-decoded; an absolute-form target names only its path; an empty query keeps its `?`.
        #expect(MockDataNaming.baseNames(for: try request("GET /caf%C3%A9/a%20b HTTP/1.1\n\n")) == ["GET|-café-a b"])
        #expect(MockDataNaming.baseNames(for: try request("GET /bad%FF%01 HTTP/1.1\n\n")) == ["GET|-bad%FF%01"])
        #expect(MockDataNaming.baseNames(for: try request("GET http://example.com:8080/x/y?z HTTP/1.1\n\n")) == ["GET|-x-y?z"])
        #expect(MockDataNaming.baseNames(for: try request("GET /q? HTTP/1.1\n\n")) == ["GET|-q?"])
        // HEAD falls back to the GET file.
        #expect(MockDataNaming.baseNames(for: try request("HEAD /h?x=1 HTTP/1.1\n\n"), allowsWildcards: true)
            == ["HEAD|-h?x=1", "HEAD|-h?*", "GET|-h?x=1", "GET|-h?*"])
        // A name that could not be a file (over 255 bytes with its extension) is left out.
        let longBody = String(repeating: "v", count: 300)
        let long = try request("POST /f HTTP/1.1\nContent-Type: application/x-www-form-urlencoded\nContent-Length: 302\n\nk=\(longBody)")
        #expect(MockDataNaming.baseNames(for: long) == ["POST|-f|\(SHA256.hex(of: Array("k=\(longBody)".utf8)))"])
        // The query whose name fits exactly (250 bytes + ".http") is kept; one byte more is hashed.
        let fitting = String(repeating: "q", count: 250 - "GET|-f?".utf8.count)
        #expect(MockDataNaming.baseNames(for: try request("GET /f?\(fitting) HTTP/1.1\n\n")) == ["GET|-f?\(fitting)"])
        #expect(MockDataNaming.baseNames(for: try request("GET /f?\(fitting)q HTTP/1.1\n\n")) == ["GET|-f?\(SHA256.hex(of: Array("\(fitting)q".utf8)))"])
    }
}
