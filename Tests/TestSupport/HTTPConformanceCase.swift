/// One row of the HTTP/1.1 conformance table: raw bytes a client sends, and what a strict server
/// (nginx's answers, RFC 9112) does with them. Shared by the parser's unit tests and the table that
/// runs every row against every HTTP-speaking listener of the `mockserver` command.
public struct HTTPConformanceCase: Sendable, CustomStringConvertible {
    /// What the server must do with the bytes.
    public enum Outcome: Sendable, Equatable {
        /// The status, a body holding `problem`, `Connection: close`, and the connection closed.
        case refused(status: Int, problem: String)
        /// Read as a request and answered by the listener (whatever its answer is), never refused as
        /// malformed.
        case accepted
    }

    /// A few words naming the row.
    public let name: String
    /// What the client sends (the whole of it; it then waits for the answer).
    public let bytes: [UInt8]
    /// What the server does.
    public let outcome: Outcome
    /// Whether the bytes carry a request body (a listener whose requests take none, the WebSocket
    /// handshake's, refuses an accepted row that has one).
    public let hasBody: Bool

    public init(_ name: String, _ bytes: [UInt8], _ outcome: Outcome, hasBody: Bool = false) {
        self.name = name
        self.bytes = bytes
        self.outcome = outcome
        self.hasBody = hasBody
    }

    public init(_ name: String, _ text: String, _ outcome: Outcome, hasBody: Bool = false) {
        self.init(name, Array(text.utf8), outcome, hasBody: hasBody)
    }

    public var description: String { name }

    private static func bad(_ problem: String) -> Outcome { .refused(status: 400, problem: problem) }
    private static let tooLarge = Outcome.refused(status: 413, problem: "request body longer than the limit of")

    /// A request with `fields` (each a whole line without CR LF) and then `rest`.
    private static func request(_ line: String, _ fields: [String], _ rest: String = "") -> String {
        line + "\r\n" + fields.map { $0 + "\r\n" }.joined() + "\r\n" + rest
    }

    /// A `GET /conformance` with `fields` and then `rest`.
    private static func get(_ fields: [String], _ rest: String = "") -> String {
        request("GET /conformance HTTP/1.1", fields, rest)
    }

    private static func chunked(_ size: String, _ rest: String = "abc") -> String {
        request("POST /conformance HTTP/1.1", ["Host: x", "Transfer-Encoding: chunked"], size + "\r\n" + rest)
    }

    private static func contentLength(_ value: String) -> String {
        request("POST /conformance HTTP/1.1", ["Host: x", "Content-Length: \(value)"], "abc")
    }

    /// A TLS 1.2 ClientHello's first bytes, as an HTTPS client sends them to a plain port.
    public static let clientHello: [UInt8] = [0x16, 0x03, 0x01, 0x00, 0xF1, 0x01, 0x00, 0x00, 0xED, 0x03, 0x03]
        + [UInt8](repeating: 0x42, count: 32) + [0x00, 0x00, 0x04, 0x13, 0x01, 0x13, 0x02, 0x01, 0x00]

    /// Every row: what a strict HTTP/1.1 server refuses, then what it must still accept.
    public static let all: [HTTPConformanceCase] = requestLine + versions + targets + starts + fields + framing + chunks + sizes + accepted

    /// The request line (RFC 9112 §3).
    public static let requestLine: [HTTPConformanceCase] = [
        .init("a request line of one word", "NONSENSE\r\n\r\n", bad("the request line is not METHOD TARGET VERSION")),
        .init("a request line of two words", "GET /\r\nHost: x\r\n\r\n", bad("the request line is not METHOD TARGET VERSION")),
        .init("a request line of four words", "GET / HTTP/1.1 extra\r\nHost: x\r\n\r\n", bad("the request line is not METHOD TARGET VERSION")),
        .init("a method with angle brackets", "G<E>T / HTTP/1.1\r\nHost: x\r\n\r\n", bad("the method is not a token: G<")),
        .init("a method with @", "GE@T / HTTP/1.1\r\nHost: x\r\n\r\n", bad("the method is not a token")),
        .init("a method with a NUL", Array("GE".utf8) + [0] + Array("T / HTTP/1.1\r\nHost: x\r\n\r\n".utf8), bad("the method is not a token")),
        .init("a method with a tab", "GET\t/ HTTP/1.1\r\nHost: x\r\n\r\n", bad("the method is not a token")),
        .init("a method with a quote", "\"GET\" / HTTP/1.1\r\nHost: x\r\n\r\n", bad("the method is not a token")),
        .init("bare CRs before the request line", "\r\r\rGET / HTTP/1.1\r\nHost: x\r\n\r\n", bad("a bare CR in the request line")),
        .init("a request line that starts with a space", " GET / HTTP/1.1\r\nHost: x\r\n\r\n", bad("the request line starts with whitespace")),
        .init("a control character in the target", "GET /a\u{01}b HTTP/1.1\r\nHost: x\r\n\r\n", bad("the request target holds a control character (0x01)")),
        .init("DEL in the target", "GET /a\u{7F}b HTTP/1.1\r\nHost: x\r\n\r\n", bad("the request target holds a control character (0x7f)")),
        .init("a bare CR ending the request line", "GET / HTTP/1.1\r\r\nHost: x\r\n\r\n", bad("a bare CR in the request line")),
        .init("a bare CR inside the request line", "GET /\rx HTTP/1.1\r\nHost: x\r\n\r\n", bad("a bare CR in the request line")),
        .init("CONNECT to a path", "CONNECT /../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n", bad("the target of CONNECT is not host:port (authority-form)")),
        .init("CONNECT without a port", "CONNECT example.com HTTP/1.1\r\nHost: example.com\r\n\r\n", bad("the target of CONNECT is not host:port")),
        .init("the HTTP/2 connection preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", bad("the HTTP/2 connection preface (PRI * HTTP/2.0) on an HTTP/1.1 listener")),
    ]

    /// The version (RFC 9112 §2.3).
    public static let versions: [HTTPConformanceCase] = [
        .init("HTTX instead of HTTP", "GET / HTTX/1.1\r\nHost: x\r\n\r\n", bad("the version is not HTTP/x.y: HTTX/1.1")),
        .init("a lower-case version", "GET / http/1.1\r\nHost: x\r\n\r\n", bad("the version is not HTTP/x.y")),
        .init("a version without a minor", "GET / HTTP/1\r\nHost: x\r\n\r\n", bad("the version is not HTTP/x.y")),
        .init("a version of three numbers", "GET / HTTP/1.1.1\r\nHost: x\r\n\r\n", bad("the version is not HTTP/x.y")),
        .init("a version of two-digit numbers", "GET / HTTP/10.1\r\nHost: x\r\n\r\n", bad("the version is not HTTP/x.y")),
        .init("HTTP/9.9", "GET / HTTP/9.9\r\nHost: x\r\n\r\n", .refused(status: 505, problem: "unsupported HTTP version: HTTP/9.9")),
        .init("HTTP/2.0 in a request line", "GET / HTTP/2.0\r\nHost: x\r\n\r\n", .refused(status: 505, problem: "unsupported HTTP version: HTTP/2.0")),
        .init("HTTP/3.0", "GET / HTTP/3.0\r\nHost: x\r\n\r\n", .refused(status: 505, problem: "unsupported HTTP version: HTTP/3.0")),
        .init("HTTP/0.9 named", "GET / HTTP/0.9\r\n\r\n", .refused(status: 505, problem: "unsupported HTTP version: HTTP/0.9")),
        .init("HTTP/1.2", "GET / HTTP/1.2\r\nHost: x\r\n\r\n", .refused(status: 505, problem: "unsupported HTTP version: HTTP/1.2")),
    ]

    /// The request target's form (RFC 9112 §3.2) and path, and the Host value, as nginx checks them.
    public static let targets: [HTTPConformanceCase] = [
        .init("a target without a leading slash", "GET abc HTTP/1.1\r\nHost: x\r\n\r\n",
              bad("the request target is neither /path (origin-form) nor scheme://host/path (absolute-form): abc")),
        .init("a target that is a scheme without //", "GET http:x HTTP/1.1\r\nHost: x\r\n\r\n", bad("the request target is neither /path")),
        .init("* with GET", "GET * HTTP/1.1\r\nHost: x\r\n\r\n", bad("the request target * (asterisk-form) is for OPTIONS only, not GET")),
        .init("../ above the root", "GET /../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n",
              bad("the request target's path climbs above the root (a .. segment): /../../etc/passwd")),
        .init("%2e%2e%2f above the root", "GET /%2e%2e%2f%2E%2E%2fetc%2fpasswd HTTP/1.1\r\nHost: x\r\n\r\n", bad("the request target's path climbs above the root")),
        .init("one .. too many after a segment", "GET /a/b/../../../x HTTP/1.1\r\nHost: x\r\n\r\n", bad("the request target's path climbs above the root")),
        .init("backslash .. above the root", "GET /..\\..\\x HTTP/1.1\r\nHost: x\r\n\r\n", bad("the request target's path climbs above the root")),
        .init("absolute-form .. above the root", "GET http://x/../a HTTP/1.1\r\nHost: x\r\n\r\n", bad("the request target's path climbs above the root")),
        .init("%00 in the path", "GET /file.txt%00.json HTTP/1.1\r\nHost: x\r\n\r\n", bad("the request target's path holds %00: /file.txt%00.json")),
        .init("a Host with a space", get(["Host: a b"]), bad("the Host header field is not a host name or address: a b")),
        .init("a Host with a slash", get(["Host: x/y"]), bad("the Host header field is not a host name or address")),
        .init("a Host with ..", get(["Host: a..b"]), bad("the Host header field is not a host name or address")),
    ]

    /// Bytes that cannot start a request: refused at once, without waiting for a line end.
    public static let starts: [HTTPConformanceCase] = [
        .init("a TLS ClientHello on a plain port", clientHello, bad("a client speaking HTTPS to a plain HTTP port")),
        .init("an SSLv2-style hello", [0x80, 0x2E, 0x01, 0x00, 0x02, 0x00, 0x15], bad("the method is not a token")),
        .init("NUL bytes", [0, 0, 0, 0], bad("the method is not a token")),
        .init("a method that is not a token, with no line end", "G<E>T /a", bad("the method is not a token")),
    ]

    /// Field lines (RFC 9112 §5, RFC 9110 §5).
    public static let fields: [HTTPConformanceCase] = [
        .init("a space between a field name and its colon", get(["Host: x", "Transfer-Encoding : chunked"], "0\r\n\r\n"),
              bad("whitespace between a field name and its colon: Transfer-Encoding :")),
        .init("a space before Host's colon", get(["Host : x"]), bad("whitespace between a field name and its colon")),
        .init("a tab before a colon", get(["Host: x", "X-A\t: 1"]), bad("whitespace between a field name and its colon")),
        .init("an obs-fold line with a space", get(["Host: x", "X-A: 1", "  continued"]), bad("an obs-fold line")),
        .init("an obs-fold line with a tab", get(["Host: x", "X-A: 1", "\tcontinued"]), bad("an obs-fold line")),
        .init("an obs-fold line as the first field", get([" Host: x"]), bad("an obs-fold line")),
        .init("a bare CR inside a value", get(["Host: x", "X-A: a\rb"]), bad("a bare CR in the request head")),
        .init("a bare CR ending a field line", get(["Host: x", "X-A: a\r"]), bad("a bare CR in the request head")),
        .init("a space in a field name", get(["Host: x", "Bad Name: v"]), bad("a header field name is not a token: Bad Name")),
        .init("@ in a field name", get(["Host: x", "X@Y: v"]), bad("a header field name is not a token: X@Y")),
        .init("a control character in a field name", get(["Host: x", "X\u{01}Y: v"]), bad("a header field name is not a token")),
        .init("a non-ASCII field name", get(["Host: x", "Xé: v"]), bad("a header field name is not a token")),
        .init("brackets in a field name", get(["Host: x", "X[1]: v"]), bad("a header field name is not a token")),
        .init("an empty field name", get(["Host: x", ": v"]), bad("a header field has an empty name")),
        .init("a field line without a colon", get(["Host: x", "broken header"]), bad("a header line has no colon")),
        .init("NUL in a value", Array(get(["Host: x", "X-A: a"]).utf8.prefix(40)) + [0] + Array("b\r\n\r\n".utf8),
              bad("the value of X-A holds a control character (0x00)")),
        .init("a control character in a value", get(["Host: x", "X-A: a\u{01}b"]), bad("the value of X-A holds a control character (0x01)")),
        .init("ESC in a value", get(["Host: x", "X-A: a\u{1B}[31mb"]), bad("the value of X-A holds a control character (0x1b)")),
        .init("DEL in a value", get(["Host: x", "X-A: a\u{7F}b"]), bad("the value of X-A holds a control character (0x7f)")),
        .init("a vertical tab in a value", get(["Host: x", "X-A: a\u{0B}b"]), bad("holds a control character (0x0b)")),
        .init("two Host fields", get(["Host: x", "Host: y"]), bad("two Host header fields")),
        .init("two Host fields in other cases", get(["host: x", "HOST: x"]), bad("two Host header fields")),
    ]

    /// Message framing (RFC 9112 §6): Content-Length and Transfer-Encoding.
    public static let framing: [HTTPConformanceCase] = [
        .init("Content-Length with Transfer-Encoding", request("POST / HTTP/1.1", ["Host: x", "Content-Length: 5", "Transfer-Encoding: chunked"], "5\r\nhello\r\n0\r\n\r\n"),
              bad("both Content-Length and Transfer-Encoding: chunked")),
        .init("Transfer-Encoding with Content-Length", request("POST / HTTP/1.1", ["Host: x", "Transfer-Encoding: chunked", "Content-Length: 5"], "5\r\nhello\r\n0\r\n\r\n"),
              bad("both Content-Length and Transfer-Encoding: chunked")),
        .init("two equal Content-Length fields", request("POST / HTTP/1.1", ["Host: x", "Content-Length: 3", "Content-Length: 3"], "abc"),
              bad("two Content-Length header fields")),
        .init("two different Content-Length fields", request("POST / HTTP/1.1", ["Host: x", "Content-Length: 3", "Content-Length: 4"], "abcd"),
              bad("two Content-Length header fields")),
        .init("a negative Content-Length", contentLength("-1"), bad("Content-Length is not a number: -1")),
        .init("a Content-Length with a plus", contentLength("+3"), bad("Content-Length is not a number: +3")),
        .init("a Content-Length in exponent form", contentLength("1e3"), bad("Content-Length is not a number: 1e3")),
        .init("a Content-Length list", contentLength("3, 3"), bad("Content-Length is not a number: 3, 3")),
        .init("a hexadecimal Content-Length", contentLength("0x3"), bad("Content-Length is not a number: 0x3")),
        .init("a Content-Length with letters", contentLength("12abc"), bad("Content-Length is not a number: 12abc")),
        .init("an empty Content-Length", request("POST / HTTP/1.1", ["Host: x", "Content-Length:"], "abc"), bad("Content-Length is not a number")),
        .init("Content-Length 2^63", contentLength("9223372036854775808"), tooLarge),
        .init("Content-Length 2^63 - 1", contentLength("9223372036854775807"), tooLarge),
        .init("Content-Length 2^64 - 1", contentLength("18446744073709551615"), tooLarge),
        .init("Content-Length of 20 nines", contentLength("99999999999999999999"), tooLarge),
        .init("Content-Length 2^31", contentLength("2147483648"), tooLarge),
        .init("a body over the body limit (64 MiB by default)", contentLength("100000000000"), tooLarge),
        .init("Transfer-Encoding gzip", request("POST / HTTP/1.1", ["Host: x", "Transfer-Encoding: gzip"], "xyz"),
              .refused(status: 501, problem: "unsupported Transfer-Encoding: gzip")),
        .init("Transfer-Encoding gzip, chunked", request("POST / HTTP/1.1", ["Host: x", "Transfer-Encoding: gzip, chunked"], "0\r\n\r\n"),
              .refused(status: 501, problem: "unsupported Transfer-Encoding: gzip, chunked")),
        .init("Transfer-Encoding chunked, gzip", request("POST / HTTP/1.1", ["Host: x", "Transfer-Encoding: chunked, gzip"], "0\r\n\r\n"),
              .refused(status: 501, problem: "unsupported Transfer-Encoding: chunked, gzip")),
        .init("Transfer-Encoding chunked, chunked", request("POST / HTTP/1.1", ["Host: x", "Transfer-Encoding: chunked, chunked"], "0\r\n\r\n"),
              .refused(status: 501, problem: "unsupported Transfer-Encoding: chunked, chunked")),
        .init("Transfer-Encoding identity", request("POST / HTTP/1.1", ["Host: x", "Transfer-Encoding: identity"], "abc"),
              .refused(status: 501, problem: "unsupported Transfer-Encoding: identity")),
        .init("Transfer-Encoding xchunked", request("POST / HTTP/1.1", ["Host: x", "Transfer-Encoding: xchunked"], "abc"),
              .refused(status: 501, problem: "unsupported Transfer-Encoding: xchunked")),
        .init("two Transfer-Encoding fields", request("POST / HTTP/1.1", ["Host: x", "Transfer-Encoding: chunked", "Transfer-Encoding: chunked"], "0\r\n\r\n"),
              bad("two Transfer-Encoding header fields")),
        .init("Transfer-Encoding in an HTTP/1.0 request", request("POST / HTTP/1.0", ["Host: x", "Transfer-Encoding: chunked"], "0\r\n\r\n"),
              bad("Transfer-Encoding in an HTTP/1.0 request")),
    ]

    /// Chunked bodies (RFC 9112 §7.1): sizes at the integer boundaries never overflow.
    public static let chunks: [HTTPConformanceCase] = [
        .init("chunk size 7fffffffffffffff", chunked("7fffffffffffffff"), tooLarge),
        .init("chunk size ffffffffffffffff", chunked("ffffffffffffffff"), tooLarge),
        .init("chunk size 8000000000000000", chunked("8000000000000000"), tooLarge),
        .init("chunk size of 17 digits", chunked("10000000000000000"), tooLarge),
        .init("chunk size 80000000 (2^31)", chunked("80000000"), tooLarge),
        .init("chunk size 64 MiB + 1, past the body limit", chunked("4000001"), tooLarge),
        .init("chunk size 7fffffffffffffff with an extension", chunked("7fffffffffffffff;x=y"), tooLarge),
        .init("a large chunk after a small one", chunked("3", "abc\r\nfffffffffffffff0\r\n"), tooLarge),
        .init("chunk size -1", chunked("-1"), bad("a chunk size is not hexadecimal: -1")),
        .init("chunk size zz", chunked("zz"), bad("a chunk size is not hexadecimal: zz")),
        .init("chunk size 0x5", chunked("0x5"), bad("a chunk size is not hexadecimal: 0x5")),
        .init("an empty chunk size", chunked(""), bad("a chunk size is empty")),
        .init("chunk data longer than its size", chunked("2", "abc\r\n0\r\n\r\n"), bad("chunk data is longer than its size")),
        .init("chunk data not followed by CRLF", chunked("2", "abXY0\r\n\r\n"), bad("chunk data is")),
        .init("a chunk size of 2,000 digits", chunked(String(repeating: "1", count: 2000)), tooLarge),
        .init("a chunk extension of 2,000 bytes", chunked("1;" + String(repeating: "a", count: 2000), "x\r\n0\r\n\r\n"), bad("a chunk-size line is too long")),
        .init("a bare CR in a chunk extension", chunked("1;a\rb", "x\r\n0\r\n\r\n"), bad("a chunk extension holds a control character (0x0d)")),
        .init("a trailer without a colon", chunked("1", "x\r\n0\r\nno colon here\r\n\r\n"), bad("a header line has no colon")),
        .init("a control character in a trailer", chunked("1", "x\r\n0\r\nX-T: a\u{01}b\r\n\r\n"), bad("the value of X-T holds a control character (0x01)")),
        .init("a chunk-size line of 2,000 zeros without its end",
              request("POST /conformance HTTP/1.1", ["Host: x", "Transfer-Encoding: chunked"], String(repeating: "0", count: 2000)),
              bad("a chunk-size line is too long")),
    ]

    /// Size limits (the head is 64 KiB, 16 KiB on a WebSocket handshake).
    public static let sizes: [HTTPConformanceCase] = [
        .init("a 2 MiB header", get(["Host: x", "X-Big: " + String(repeating: "b", count: 2 << 20)]),
              .refused(status: 431, problem: "request head longer than the limit of")),
        .init("a thousand 100-byte headers", get(["Host: x"] + (0..<1000).map { "X-\($0): " + String(repeating: "v", count: 100) }),
              .refused(status: 431, problem: "request head longer than the limit of")),
        .init("a 70 KiB request line", "GET /" + String(repeating: "a", count: 70 << 10) + " HTTP/1.1\r\nHost: x\r\n\r\n",
              .refused(status: 414, problem: "request line longer than the limit of")),
        .init("70 KiB of trailers", chunked("0", "X-T: " + String(repeating: "t", count: 70 << 10) + "\r\n\r\n"),
              .refused(status: 431, problem: "request head longer than the limit of")),
    ]

    /// What a strict server still accepts (RFC 9112's leniencies that real clients rely on).
    public static let accepted: [HTTPConformanceCase] = [
        .init("a field without a space after its colon", get(["Host:x"]), .accepted),
        .init("a tab inside a value", get(["Host: x", "X-A: a\tb"]), .accepted),
        .init("UTF-8 (obs-text) in a value", get(["Host: x", "X-A: café"]), .accepted),
        .init("LF-only line ends", "GET /conformance HTTP/1.1\nHost: x\n\n", .accepted),
        .init("blank lines before a request", "\r\n\r\nGET /conformance HTTP/1.1\r\nHost: x\r\n\r\n", .accepted),
        .init("HTTP/1.0 without Host", "GET /conformance HTTP/1.0\r\n\r\n", .accepted),
        // nginx refuses this (RFC 9112 §3.2); a mock accepts it, as raw-socket tests and scripts
        // written for the original MockServer send requests without Host.
        .init("HTTP/1.1 without Host", "GET /conformance HTTP/1.1\r\n\r\n", .accepted),
        .init("a method of its own", request("M-SEARCH /conformance HTTP/1.1", ["Host: x"]), .accepted),
        .init("Transfer-Encoding Chunked in other case", request("POST /conformance HTTP/1.1", ["Host: x", "Transfer-Encoding:  Chunked "], "3\r\nabc\r\n0\r\n\r\n"),
              .accepted, hasBody: true),
        .init("chunk extensions, upper-case hex and trailers", request("POST /conformance HTTP/1.1", ["Host: x", "Transfer-Encoding: chunked"], "A;name=value\r\n0123456789\r\n0\r\nX-T: t\r\n\r\n"),
              .accepted, hasBody: true),
        .init("a Content-Length with leading zeros", request("POST /conformance HTTP/1.1", ["Host: x", "Content-Length: 0003"], "abc"), .accepted, hasBody: true),
    ]
}
