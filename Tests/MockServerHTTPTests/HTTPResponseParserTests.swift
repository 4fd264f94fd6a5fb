import Testing
import TestSupport
import MockServerHTTP

/// The client-side response reader of the in-process path: pure code, fed in pieces.
@Suite("HTTP response parser", .cpuBound)
struct HTTPResponseParserTests {
    /// Feeds `text` in pieces of `size` bytes, then the end of the connection when `close`.
    private func parse(_ text: String, method: String = "GET", size: Int = .max, close: Bool = false) throws -> (status: Int?, body: String, complete: Bool) {
        var parser = HTTPResponseParser(requestMethod: method)
        let bytes = Array(text.utf8)
        var events: [HTTPResponseParser.Event] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + size)
            events += try parser.append(Array(bytes[offset..<end]))
            offset = end
        }
        if close { events += try parser.finish() }
        var status: Int?
        var body: [UInt8] = []
        var complete = false
        for event in events {
            switch event {
            case .head(let head): status = head.status
            case .body(let piece): body += piece
            case .end: complete = true
            }
        }
        return (status, String(decoding: body, as: UTF8.self), complete)
    }

    @Test("Content-Length, whole and one byte at a time, with CRLF or LF line ends")
    func contentLength() throws {
        for size in [1, 2, 7, .max] {
            let result = try parse("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", size: size)
            #expect(result.status == 200 && result.body == "hello" && result.complete)
        }
        let lf = try parse("HTTP/1.1 201 Created\nContent-Length:  2 \n\nok")
        #expect(lf.status == 201 && lf.body == "ok" && lf.complete)
    }

    @Test("chunked bodies are decoded, extensions and trailers skipped, in any split")
    func chunked() throws {
        let text = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;x=y\r\nWiki\r\n5\r\npedia\r\n0\r\nX-Trailer: 1\r\n\r\n"
        for size in [1, 3, .max] {
            let result = try parse(text, size: size)
            #expect(result.body == "Wikipedia" && result.complete)
        }
    }

    @Test("interim 100 responses are skipped; HEAD, 204 and 304 have no body")
    func noBody() throws {
        let interim = try parse("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nx")
        #expect(interim.status == 200 && interim.body == "x")
        let head = try parse("HTTP/1.1 200 OK\r\nContent-Length: 7\r\n\r\n", method: "HEAD")
        #expect(head.body == "" && head.complete)
        for status in [204, 304] {
            #expect(try parse("HTTP/1.1 \(status) X\r\n\r\n").complete)
        }
    }

    @Test("a body without a length ends with the connection; a short one is an error")
    func untilClose() throws {
        let open = try parse("HTTP/1.0 200 OK\r\n\r\nabc", close: true)
        #expect(open.body == "abc" && open.complete)
        #expect(throws: HTTPResponseParser.ParseError.truncated(bodyBytes: 3)) { try parse("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nabc", close: true) }
        #expect(throws: HTTPResponseParser.ParseError.truncated(bodyBytes: 0)) { try parse("", close: true) }
    }

    @Test("a status line that is not HTTP is malformed")
    func malformed() {
        #expect(throws: HTTPResponseParser.ParseError.self) { try parse("220 FTP ready\r\n\r\n") }
        #expect(throws: HTTPResponseParser.ParseError.self) { try parse("HTTP/1.1 200 OK\r\nno colon\r\n\r\n") }
        for line in ["HTTP/1.1", "HTTP/1.1 ", "HTTP/1.1  200 OK", "HTTP/1.1 20 OK", "HTTP/1.1 2000 OK", "HTTP/1.1 099 X", "HTTP/1.1 +20 X", "HTTPS/1.1 200 OK", "\r\nHTTP/1.1 200 OK"] {
            #expect(throws: HTTPResponseParser.ParseError.malformed("status line \"\(String(line.prefix { $0 != "\r\n" }))\""), "\(line)") {
                try parse(line + "\r\n\r\n")
            }
        }
    }

    @Test("the head's version, status, reason (spaces kept, or none) and fields (values trimmed, empty values kept)")
    func head() throws {
        func head(_ text: String) throws -> HTTPResponseHead? {
            var parser = HTTPResponseParser(requestMethod: "GET")
            for case .head(let head) in try parser.append(Array(text.utf8)) { return head }
            return nil
        }
        let full = try #require(try head("HTTP/1.0 404 Not  Found Here\r\nX-A:\t spaced value \t\r\nX-Empty:\r\nX-A: second\r\nContent-Length: 0\r\n\r\n"))
        #expect(full.version == "HTTP/1.0" && full.status == 404 && full.reason == "Not  Found Here")
        #expect(full.headers.map(\.name) == ["X-A", "X-Empty", "X-A", "Content-Length"])
        #expect(full.headers.map(\.value) == ["spaced value", "", "second", "0"])
        let bare = try #require(try head("HTTP/1.1 599\nContent-Length: 0\n\n"))
        #expect(bare.status == 599 && bare.reason == "" && bare.headers.map(\.value) == ["0"])
        let empty = try #require(try head("HTTP/1.1 200 \r\n\r\n"))
        #expect(empty.reason == "" && empty.headers.map(\.name).isEmpty)
        let utf8 = try #require(try head("HTTP/1.1 200 Gr\u{FC}\u{DF}e\r\nX-N: caf\u{E9}\r\n\r\n"))
        #expect(utf8.reason == "Gr\u{FC}\u{DF}e" && utf8.headers["X-N"] == "caf\u{E9}")
    }

    @Test("whether the connection closes and how the body is framed come from the head's own fields, as its header list tells them",
          arguments: [
              ("Connection: close", true), ("connection: Keep-Alive, CLOSE", true), ("Connection: keep-alive", false),
              ("X-Connection: close", false), ("Connection : close", false), ("Connection: closed", false),
              ("Connection: keep-alive\r\nCONNECTION: close", true), ("Server: close", false),
          ])
    func closesConnection(field: String, closes: Bool) throws {
        var parser = HTTPResponseParser(requestMethod: "GET")
        let events = try parser.append(Array("HTTP/1.1 100 Continue\r\nConnection: close\r\n\r\nHTTP/1.1 200 OK\r\n\(field)\r\nContent-Length: 0\r\n\r\n".utf8))
        guard case .head(let head) = events.first else { Issue.record("no head"); return }
        #expect(parser.closesConnection == closes)
        #expect(parser.closesConnection == head.headers.hasToken("close", in: "Connection"), "as the header list tells it")
        #expect(parser.isComplete)
    }

    @Test("framing fields in any case: chunked among other codings, the first Content-Length alone (a bad one leaves the body to the close)")
    func framingFields() throws {
        let chunked = try parse("HTTP/1.1 200 OK\r\ntransfer-encoding: gzip, CHUNKED\r\nContent-Length: 99\r\n\r\n2\r\nok\r\n0\r\n\r\n")
        #expect(chunked.body == "ok" && chunked.complete)
        let upper = try parse("HTTP/1.1 200 OK\r\nCONTENT-LENGTH: 2\r\n\r\nokEXTRA")
        #expect(upper.body == "ok" && upper.complete)
        let firstBad = try parse("HTTP/1.1 200 OK\r\nContent-Length: x\r\nContent-Length: 2\r\n\r\nokay", close: true)
        #expect(firstBad.body == "okay" && firstBad.complete)
        let spaced = try parse("HTTP/1.1 200 OK\r\nTransfer-Encoding : chunked\r\nContent-Length: 3\r\n\r\nabc")
        #expect(spaced.body == "abc" && spaced.complete, "a name with a space before its colon is not Transfer-Encoding")
    }

    @Test("common names, versions and reasons come out as sent, in whatever case; others are decoded as they are")
    func commonText() throws {
        var parser = HTTPResponseParser(requestMethod: "GET")
        let names = ["Date", "date", "DATE", "Content-Type", "content-type", "Content-type", "Set-Cookie", "X-Custom", "Access-Control-Allow-Origin", "Vary "]
        let text = "HTTP/1.1 404 Not Found\r\n" + names.enumerated().map { "\($0.element): v\($0.offset)\r\n" }.joined() + "Content-Length: 0\r\n\r\n"
        guard case .head(let head) = try parser.append(Array(text.utf8)).first else { Issue.record("no head"); return }
        #expect(head.version == "HTTP/1.1" && head.status == 404 && head.reason == "Not Found")
        #expect(head.headers.map(\.name) == names + ["Content-Length"])
        #expect(head.headers.map(\.value) == names.indices.map { "v\($0)" } + ["0"])
        for (line, version, reason) in [("HTTP/1.0 200 OK", "HTTP/1.0", "OK"), ("HTTP/1.1 200 ok", "HTTP/1.1", "ok"), ("HTTP/1.2 200 Fine", "HTTP/1.2", "Fine"),
                                        ("HTTP/1.1 500 Internal Server Error", "HTTP/1.1", "Internal Server Error")] {
            var parser = HTTPResponseParser(requestMethod: "GET")
            guard case .head(let head) = try parser.append(Array("\(line)\r\nContent-Length: 0\r\n\r\n".utf8)).first else { Issue.record("no head"); continue }
            #expect(head.version == version && head.reason == reason)
        }
    }

    @Test("the head notes which literal each of its first 16 fields is named, exactly or lower-cased; other spellings, names and later fields have none")
    func fieldIDs() throws {
        var parser = HTTPResponseParser(requestMethod: "GET")
        let names = ["Date", "date", "DATE", "Content-type", "X-Custom", "Vary ", "Set-Cookie", "x-content-type-options", "Age"]
            + Array(repeating: "Server", count: 8)
        let text = "HTTP/1.1 200 OK\r\n" + names.enumerated().map { "\($0.element): v\($0.offset)\r\n" }.joined() + "Content-Length: 0\r\n\r\n"
        guard case .head(let head) = try parser.append(Array(text.utf8)).first else { Issue.record("no head"); return }
        let literals = HTTPResponseFieldName.literals
        let ids = (0..<head.headers.count).map { head.fieldIDs[$0].map { literals[$0] } }
        #expect(ids == ["Date", "Date", nil, nil, nil, nil, "Set-Cookie", "X-Content-Type-Options", "Age"] + Array(repeating: "Server", count: 7) + [nil, nil])
        #expect(head.fieldIDs[-1] == nil && head.fieldIDs[HTTPResponseFieldIDs.capacity] == nil)
        // A note, not what the head says: a head made with none is the same head.
        #expect(head == HTTPResponseHead(version: head.version, status: head.status, reason: head.reason, headers: head.headers))
    }

    @Test("field IDs: every literal index in every place, each place apart from the others")
    func fieldIDsAlone() {
        for index in 0..<HTTPResponseFieldIDs.capacity {
            for literal in [0, 1, 19, 254] {
                var ids = HTTPResponseFieldIDs()
                ids.note(literal, at: index)
                #expect((0..<HTTPResponseFieldIDs.capacity).map { ids[$0] } == (0..<HTTPResponseFieldIDs.capacity).map { $0 == index ? literal : nil })
            }
        }
        var ids = HTTPResponseFieldIDs()
        ids.note(255, at: 0)
        ids.note(3, at: HTTPResponseFieldIDs.capacity)
        ids.note(3, at: -1)
        #expect(ids == HTTPResponseFieldIDs())
    }

    @Test("with a head limit: a head, a chunk-size line or a trailer line past it is malformed, in any split; up to it, read")
    func headLimit() throws {
        func outcome(_ text: String, limit: Int, size: Int) -> String {
            var parser = HTTPResponseParser(requestMethod: "GET", maximumHeadLength: limit)
            let bytes = Array(text.utf8)
            var offset = 0
            do {
                while offset < bytes.count {
                    let end = min(bytes.count, offset + size)
                    _ = try parser.append(Array(bytes[offset..<end]))
                    offset = end
                }
                return parser.isComplete ? "complete" : "waiting"
            } catch {
                return "\(error)"
            }
        }
        let padded = "HTTP/1.1 200 OK\r\nX-Pad: " + String(repeating: "p", count: 1000) + "\r\nContent-Length: 2\r\n\r\nok"
        let unended = "HTTP/1.1 200 OK\r\nX-Pad: " + String(repeating: "p", count: 1000)
        let chunkLine = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + String(repeating: "0", count: 1000)
        for size in [1, 7, 4096] {
            #expect(outcome(padded, limit: 2000, size: size) == "complete")
            #expect(outcome(unended, limit: 2000, size: size) == "waiting")
            #expect(outcome(unended, limit: 500, size: size) == "malformed response: a head or line longer than 500 bytes")
            #expect(outcome(chunkLine, limit: 500, size: size) == "malformed response: a head or line longer than 500 bytes")
        }
    }
}
