import Foundation
import Testing
import TestSupport
import MockServer

/// Bytes that are not a request get nginx's answer (400, 431, 413 or 501) with a body naming the
/// problem, the transcript says the same, and the server goes on serving.
@Suite("Malformed HTTP gets an answer", .offPool)
struct MalformedHTTPTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let request: [UInt8]
        let status: Int
        let problem: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "a chunk size that is not hexadecimal",
             request: Array("POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n".utf8),
             status: 400, problem: "a chunk size is not hexadecimal: zz"),
        Case(name: "Content-Length with Transfer-Encoding",
             request: Array("POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n".utf8),
             status: 400, problem: "both Content-Length and Transfer-Encoding: chunked"),
        Case(name: "an invalid Content-Length",
             request: Array("POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 12abc\r\n\r\n".utf8),
             status: 400, problem: "Content-Length is not a number: 12abc"),
        Case(name: "a 2 MiB header",
             request: Array("GET /a HTTP/1.1\r\nHost: x\r\nX-Big: ".utf8) + [UInt8](repeating: UInt8(ascii: "b"), count: 2 << 20) + Array("\r\n\r\n".utf8),
             status: 431, problem: "request head longer than the limit of 65536 bytes"),
        Case(name: "a body over the limit",
             request: Array("PUT /a HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000000\r\n\r\nsome".utf8),
             status: 413, problem: "request body longer than the limit of 67108864 bytes"),
        Case(name: "an unknown transfer coding",
             request: Array("POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\nxyz".utf8),
             status: 501, problem: "unsupported Transfer-Encoding: gzip"),
        Case(name: "a request line that is not METHOD TARGET VERSION",
             request: Array("NONSENSE\r\n\r\n".utf8),
             status: 400, problem: "the request line is not METHOD TARGET VERSION"),
    ]

    private func start() async throws -> HTTPMockServer {
        let server = HTTPMockServer()
        server.stubRequest("GET", "/ok").andReturn(200).withBody("fine")
        try await server.start()
        return server
    }

    @Test("a raw client gets the status and the named problem, the transcript says it, and the server serves on", arguments: cases)
    func rawSocket(_ example: Case) async throws {
        let server = try await start()
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        // A keep-alive request first: the refusal must not depend on being the connection's first.
        try client.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try client.readLine() == "HTTP/1.1 200 OK")
        try client.send(example.request)
        let answer = String(decoding: try client.readToEnd(), as: UTF8.self)
        #expect(answer.contains("HTTP/1.1 \(example.status) "), "\(answer.prefix(400))")
        #expect(answer.contains("Connection: close\r\n"))
        #expect(answer.contains("\(example.problem)\n"), "\(answer.prefix(400))")
        client.shutdownWrite()
        let closed = try await server.transcript.wait { entry in
            if case .closed = entry.event, entry.connection == 1 { true } else { false }
        }
        #expect("\(closed.event)".contains(example.problem.prefix(30)), "\(closed.event)")
        // The server goes on serving.
        let next = try TestClient(port: server.port)
        try next.send("GET /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(String(decoding: try next.readToEnd(), as: UTF8.self).hasSuffix("\r\n\r\nfine"))
    }

    @Test("a client that goes on sending after its answer is closed when it stops, and reads the answer, not a reset")
    func lingering() async throws {
        let server = try await start()
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        try client.send("POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n")
        #expect(try client.readLine() == "HTTP/1.1 501 Not Implemented")
        // Bytes after the answer are read and dropped: no reset reaches the client.
        for _ in 0..<64 { try client.send([UInt8](repeating: 0x41, count: 16 << 10)) }
        let rest = String(decoding: try client.readToEnd(), as: UTF8.self)
        #expect(rest.hasSuffix("unsupported Transfer-Encoding: gzip\n"), "\(rest)")
    }

    @Test("curl and Python's http.client see the status", .enabled(if: Tools.hasCurl && Tools.hasPython))
    func realClients() async throws {
        let server = try await start()
        defer { server.stop() }
        let directory = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // curl sends at most about 128 KiB of header fields (more is its own exit 27): 100 KB is over the limit.
        let headers = directory.appendingPathComponent("headers.txt")
        try Data((0..<100).map { "X-Big-\($0): " + String(repeating: "b", count: 1000) + "\n" }.joined().utf8).write(to: headers)
        let big = try Tools.curl(["-s", "-o", "-", "-w", "%{http_code}", "-H", "@\(headers.path)", "http://127.0.0.1:\(server.port)/ok"])
        #expect(big.stdout.hasSuffix("request head longer than the limit of 65536 bytes\n431"), "\(big.stdout.suffix(200)) \(big.stderr)")
        let coding = try Tools.curl(["-s", "-o", "-", "-w", "%{http_code}", "-H", "Transfer-Encoding: gzip", "--data-binary", "x",
                                     "http://127.0.0.1:\(server.port)/ok"])
        #expect(coding.stdout.hasSuffix("501"), "\(coding.stdout) \(coding.stderr)")
        let python = try Tools.python("""
            import http.client
            c = http.client.HTTPConnection("127.0.0.1", \(server.port), timeout=10)
            c.putrequest("POST", "/ok"); c.putheader("Content-Length", "12abc"); c.endheaders()
            r = c.getresponse(); print(r.status, r.reason, r.read().decode().strip())
            c = http.client.HTTPConnection("127.0.0.1", \(server.port), timeout=10)
            c.request("GET", "/ok", headers={"X-Big": "b" * (2 << 20)}); r = c.getresponse(); print(r.status, r.reason)
            c = http.client.HTTPConnection("127.0.0.1", \(server.port), timeout=10)
            c.request("GET", "/ok"); r = c.getresponse(); print(r.status, r.read().decode())
            """)
        #expect(python.stdout == "400 Bad Request MockServer: 400 Bad Request: malformed request: Content-Length is not a number: 12abc\n"
                + "431 Request Header Fields Too Large\n200 fine\n",
                "\(python.stdout) \(python.stderr)")
    }
}
