import Testing
import TestSupport
@testable import MockServerCore
@testable import MockServerHTTP

/// `HTTPRequestParser.request(bytes:requestLineLength:headLength:headers:)`, a request read from the
/// parts a client wrote it from: the same request, or the same refusal, as the parser's `next()`
/// over the same bytes.
@Suite("HTTP/1.1 request from its parts", .cpuBound)
struct HTTPRequestPartsTests {
    /// What a parser makes of a request: its parts as the responders see them, or the error.
    private struct Read: Equatable {
        let method: String
        let target: String
        let version: String
        let headers: HTTPHeaderFields
        let raw: [UInt8]
        let body: [UInt8]
        let wantsKeepAlive: Bool

        init(_ request: HTTPMockRequest) {
            (method, target, version, headers) = (request.method, request.target, request.version, request.headers)
            (raw, body, wantsKeepAlive) = (request.raw, request.body, request.wantsKeepAlive)
        }
    }

    /// The parts a client that writes `Name: value` lines would have written `bytes` from: the
    /// request line's length, the head's, and the fields, a line that is not `Name: value` (an
    /// obs-fold, a line without a colon) taken as the previous value's continuation after its CR LF,
    /// as a value holding CR LF writes it. `nil` when no such parts write `bytes` back exactly.
    private static func parts(of bytes: [UInt8]) -> (requestLineLength: Int, headLength: Int, headers: HTTPHeaderFields)? {
        let crlf: [UInt8] = [0x0D, 0x0A]
        guard let headEnd = bytes.firstRange(of: crlf + crlf)?.upperBound,
              let lineEnd = bytes.firstRange(of: crlf)?.lowerBound else { return nil }
        var fields: [HTTPHeaderFields.Field] = []
        // The field lines lie between the request line's CR LF and the blank line's.
        if headEnd - 4 > lineEnd {
            for line in bytes[lineEnd + 2..<headEnd - 4].split(separator: crlf, omittingEmptySubsequences: false) {
                let text = String(decoding: line, as: UTF8.self)
                if let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex, line.first != 0x20, line.first != 0x09,
                   line[colon...].starts(with: ": ".utf8) || colon == line.endIndex - 1 {
                    let name = String(decoding: line[..<colon], as: UTF8.self)
                    fields.append(.init(name: name, value: String(decoding: line[min(colon + 2, line.endIndex)...], as: UTF8.self)))
                } else if !fields.isEmpty {
                    fields[fields.count - 1].value += "\r\n" + text
                } else {
                    return nil
                }
            }
        }
        let headers = HTTPHeaderFields(fields)
        // Written back as the client writes them; an empty value has its space too.
        var written = Array(bytes[..<lineEnd]) + crlf
        for field in headers.fields { written += Array("\(field.name): \(field.value)\r\n".utf8) }
        written += crlf + bytes[headEnd...]
        guard written == bytes else { return nil }
        return (lineEnd, headEnd, headers)
    }

    private static func byParser(_ bytes: [UInt8], _ parser: HTTPRequestParser) -> Result<Read?, FramingError> {
        var parser = parser
        parser.append(bytes)
        do { return .success(try parser.next().map(Read.init)) } catch { return .failure(error) }
    }

    private static func byParts(_ bytes: [UInt8], _ parser: HTTPRequestParser) -> Result<Read?, FramingError>? {
        guard let parts = parts(of: bytes) else { return nil }
        do {
            return .success(try parser.request(bytes: bytes, requestLineLength: parts.requestLineLength, headLength: parts.headLength,
                                               headers: parts.headers).map(Read.init))
        } catch {
            return .failure(error)
        }
    }

    /// Rows of the conformance table that parts can write (their bytes have a blank line, and each
    /// line reads as `Name: value` or as a value's continuation), with the parser's outcome for each.
    private static let writableRows = HTTPConformanceCase.all.filter { parts(of: $0.bytes) != nil }

    @Test("every conformance row that parts can write is refused with the same error, or read as the same request")
    func conformanceRows() {
        // The table's refusals of fields, framing and targets must be among them.
        #expect(Self.writableRows.count > 60)
        for row in Self.writableRows {
            let parser = HTTPRequestParser()
            #expect(Self.byParts(row.bytes, parser) == Self.byParser(row.bytes, parser), "\(row.name)")
        }
    }

    static let more: [(String, String)] = [
        ("a plain GET", "GET /a?b=1 HTTP/1.1\r\nHost: example.com:8080\r\nAccept: */*\r\nUser-Agent: t\r\n\r\n"),
        ("no fields", "GET / HTTP/1.1\r\n\r\n"),
        ("Connection: close", "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
        ("Connection: keep-alive, Upgrade", "GET / HTTP/1.1\r\nHost: x\r\nconnection: keep-alive, Upgrade\r\n\r\n"),
        ("a body and its length", "POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"),
        ("an empty body's length", "PUT /p HTTP/1.1\r\nHost: x\r\ncontent-length: 0\r\n\r\n"),
        ("a length longer than the body", "POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nabc"),
        ("a length shorter than the body", "POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nabc"),
        ("a body without a length", "POST /p HTTP/1.1\r\nHost: x\r\n\r\nabc"),
        ("a chunked body", "POST /p HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"),
        ("Expect: 100-continue", "POST /p HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\na"),
        ("a value with spaces around it", "GET / HTTP/1.1\r\nHost: x\r\nX-A:  padded \t\r\n\r\n"),
        ("an empty value", "GET / HTTP/1.1\r\nHost: x\r\nX-A: \r\n\r\n"),
        ("UTF-8 in a value", "GET / HTTP/1.1\r\nHost: x\r\nX-A: café ☕\r\n\r\n"),
        ("a tab inside a value", "GET / HTTP/1.1\r\nHost: x\r\nX-A: a\tb\r\n\r\n"),
        ("LF and a field inside a value", "GET / HTTP/1.1\r\nHost: x\r\nX-A: a\nX-B: injected\r\n\r\n"),
        ("CR LF and a field inside a value", "GET / HTTP/1.1\r\nHost: x\r\nX-A: a\r\nX-B: injected\r\n\r\n"),
        ("CR LF CR LF inside a value", "GET / HTTP/1.1\r\nHost: x\r\nX-A: a\r\n\r\nGET /smuggled HTTP/1.1\r\n\r\n"),
        ("a lower-case method", "get / HTTP/1.1\r\nHost: x\r\n\r\n"),
        ("an unusual method", "PROPFIND /d/ HTTP/1.1\r\nHost: x\r\nDepth: 1\r\n\r\n"),
        ("a percent-encoded target", "GET /a%20b/%E2%98%95?q=%2F HTTP/1.1\r\nHost: x\r\n\r\n"),
        ("an absolute-form target", "GET http://x/a HTTP/1.1\r\nHost: x\r\n\r\n"),
        ("two spaces in the request line", "GET  / HTTP/1.1\r\nHost: x\r\n\r\n"),
        ("HTTP/1.0", "GET / HTTP/1.0\r\nHost: x\r\n\r\n"),
        ("HTTP/1.0 with keep-alive", "GET / HTTP/1.0\r\nHost: x\r\nConnection: keep-alive\r\n\r\n"),
        ("an IPv6 Host", "GET / HTTP/1.1\r\nHost: [::1]:8080\r\n\r\n"),
        ("a Host that starts with a dot", "GET / HTTP/1.1\r\nHost: .x\r\n\r\n"),
        ("a Host with a backslash", "GET / HTTP/1.1\r\nHost: a\\b\r\n\r\n"),
        ("a long field", "GET / HTTP/1.1\r\nHost: x\r\nX-Long: " + String(repeating: "v", count: 200) + "\r\n\r\n"),
    ]

    @Test("more requests a client may write, as parts and as bytes: the same outcome", arguments: more)
    func moreRows(_ row: (String, String)) throws {
        let bytes = Array(row.1.utf8)
        let parser = HTTPRequestParser()
        let byParts = try #require(Self.byParts(bytes, parser), "parts cannot write \(row.0)")
        #expect(byParts == Self.byParser(bytes, parser))
    }

    @Test("the parser's limits apply: a head or a body past them is refused as the parser refuses it")
    func limits() throws {
        let bytes = Array(("POST /" + String(repeating: "a", count: 80) + " HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc").utf8)
        for parser in [HTTPRequestParser(maximumHeadLength: 64), HTTPRequestParser(maximumBodyLength: 2), HTTPRequestParser()] {
            let byParts = try #require(Self.byParts(bytes, parser))
            #expect(byParts == Self.byParser(bytes, parser))
        }
        #expect(throws: FramingError.requestLineTooLong(limit: 64)) { try Self.byParts(bytes, HTTPRequestParser(maximumHeadLength: 64))?.get() }
        #expect(throws: FramingError.bodyTooLong(limit: 2)) { try Self.byParts(bytes, HTTPRequestParser(maximumBodyLength: 2))?.get() }
    }

    @Test("fields that pass the checks are taken from the parts, not read again from the bytes")
    func partsAreRead() throws {
        // Parts that disagree with their bytes (which a caller must never give) show which were read.
        let bytes = Array("GET /a HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n\r\n".utf8)
        let request = try #require(try HTTPRequestParser().request(bytes: bytes, requestLineLength: 15, headLength: bytes.count,
                                                                   headers: ["Host": "x", "X-A": "2"]))
        #expect(request.headers["X-A"] == "2")
        #expect(request.raw == bytes)
        #expect(request.method == "GET" && request.target == "/a" && request.version == "HTTP/1.1" && request.wantsKeepAlive)
        // One the checks doubt is left to the parser, which reads the bytes.
        let doubted = try #require(try HTTPRequestParser().request(bytes: bytes, requestLineLength: 15, headLength: bytes.count,
                                                                   headers: ["Host": "x", "X-A": "2\r\n"]))
        #expect(doubted.headers["X-A"] == "1")
    }
}
