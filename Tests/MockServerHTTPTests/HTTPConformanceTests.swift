import Testing
import TestSupport
@testable import MockServerCore
@testable import MockServerHTTP

/// The conformance table's rows against the parser alone: the same refusal (status and named
/// problem) or the same request, whether the bytes come in one read or in many.
@Suite("HTTP/1.1 conformance: the parser", .cpuBound)
struct HTTPConformanceTests {
    /// Reads sizes to cut a row into: single bytes for short rows, so that every split is tried.
    private static func cuts(_ bytes: [UInt8]) -> [Int] {
        bytes.count <= 4096 ? [1, 3, 64, bytes.count] : [4096, bytes.count]
    }

    /// What the parser makes of `bytes` fed `size` bytes at a time: the first request, or the error.
    private func outcome(_ bytes: [UInt8], size: Int) -> Result<HTTPMockRequest?, FramingError> {
        var parser = HTTPRequestParser()
        var offset = 0
        do {
            while offset < bytes.count {
                parser.append(bytes[offset..<min(offset + size, bytes.count)])
                offset += size
                if let request = try parser.next() { return .success(request) }
            }
            return .success(nil)
        } catch {
            return .failure(error)
        }
    }

    @Test("each row is refused with its status and problem, or read as a request, in any reads", arguments: HTTPConformanceCase.all)
    func row(_ row: HTTPConformanceCase) {
        for size in Self.cuts(row.bytes) {
            switch (row.outcome, outcome(row.bytes, size: size)) {
            case (.refused(let status, let problem), .failure(let error)):
                #expect(HTTPMalformedRequest.status(for: error).code == status, "\(error), reads of \(size)")
                #expect(error.description.contains(problem), "\(error), reads of \(size)")
                let body = String(decoding: HTTPMalformedRequest.response(for: error).body, as: UTF8.self)
                #expect(body.contains(problem))
            case (.refused, .success(let request)):
                Issue.record("reads of \(size): not refused; read as \(request.map { "\($0.method) \($0.target)" } ?? "an unfinished request")")
            case (.accepted, .success(let request)):
                #expect(request?.target == "/conformance", "reads of \(size)")
            case (.accepted, .failure(let error)):
                Issue.record("reads of \(size): refused: \(error)")
            }
        }
    }

    @Test("a request line past the limit is 414 also when its line end arrived with the bytes that passed the limit (it was 431)")
    func longRequestLineEnded() {
        var parser = HTTPRequestParser()
        parser.append(Array(("GET /" + String(repeating: "a", count: 70_000) + " HTTP/1.1\r\nHost: x\r\n").utf8))
        #expect(throws: FramingError.requestLineTooLong(limit: 65_536)) { try parser.next() }
    }

    @Test("a head that comes a byte at a time is read as the same request, and a slow head's end is still found after blank lines")
    func slowHead() throws {
        var parser = HTTPRequestParser()
        let bytes = Array("\r\n\nGET /slow HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n\r\nGET /next HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        var targets: [String] = []
        for byte in bytes {
            parser.append([byte])
            while let request = try parser.next() { targets.append(request.target) }
        }
        #expect(targets == ["/slow", "/next"])
    }

    @Test("a body of more chunks than the limit is refused naming it; one of exactly the limit is read; the default is 2^20")
    func chunkCount() throws {
        #expect(HTTPRequestParser().maximumChunkCount == 1 << 20)
        let head = "POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
        for (count, refused) in [(16, false), (17, true)] {
            var parser = HTTPRequestParser(maximumChunkCount: 16)
            parser.append(Array((head + String(repeating: "1\r\nx\r\n", count: count) + "0\r\n\r\n").utf8))
            if refused {
                #expect(throws: FramingError.malformedRequest("a chunked body of more than 16 chunks")) { try parser.next() }
            } else {
                #expect(try parser.next()?.body.count == count)
            }
        }
    }

    @Test("the table has more than 80 rows, and each refusal names a different problem or a different input")
    func size() {
        #expect(HTTPConformanceCase.all.count > 80)
        #expect(Set(HTTPConformanceCase.all.map(\.name)).count == HTTPConformanceCase.all.count)
    }

    @Test("chunk sizes are compared with the room left before anything is added", arguments: [
        ("7fffffffffffffff", 100, nil), ("ffffffffffffffff", Int.max, nil), ("10000000000000000", Int.max, nil),
        ("7fffffffffffffff", Int.max, Int.max), ("0", 0, 0), ("1", 0, nil), ("f", 15, 15), ("10", 15, nil), ("000000000000000000001", 1, 1),
    ] as [(String, Int, Int?)])
    func chunkSize(text: String, limit: Int, expected: Int?) throws {
        #expect(try HTTPSyntax.chunkSize(ArraySlice(text.utf8), limit: limit) == expected)
    }

    @Test("Content-Length values are compared with the limit before anything is added", arguments: [
        ("9223372036854775807", Int.max, Int.max), ("9223372036854775808", Int.max, nil), ("18446744073709551615", Int.max, nil),
        ("0", 0, 0), ("1", 0, nil), ("10", 10, 10), ("11", 10, nil), ("0000000000000000000000010", 10, 10),
    ] as [(String, Int, Int?)])
    func contentLength(text: String, limit: Int, expected: Int?) throws {
        #expect(try HTTPSyntax.contentLength(ArraySlice(text.utf8), limit: limit) == expected)
    }
}
