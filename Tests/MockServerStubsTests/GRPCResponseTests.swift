import Foundation
import Testing
import TestSupport
import MockServer

/// gRPC answers and trailers over HTTP/1.1 from endpoints files and Swift stubs, read by real clients
/// (a Python client that reads the chunked body's trailer section, and curl).
@Suite("gRPC responses", .offPool)
struct GRPCResponseTests {
    static let file = #"""
        { "endpoints": [
            { "api": "post /shop.Items/Get", "response": { "grpc": { "messages": [ { "hex": "08 07" } ] } } },
            { "api": "post /shop.Items/Watch", "response": { "grpc": { "messages": [
                { "base64": "CAE=" }, { "file": "item.bin", "delay": 0.05 }, { "hex": "08 03", "delay": 5 } ],
                "status": 0 } } },
            { "api": "post /shop.Items/Delete", "response": { "grpc": { "status": 7, "message": "not yours: 100% sure" } } },
            { "api": "get /report", "response": { "body": "done", "trailers": { "Checksum": "${query:sum}" } } },
        ] }
        """#

    static func started() async throws -> (HTTPMockServer, URL) {
        let directory = try Tools.temporaryDirectory()
        try Data([0x08, 0x02]).write(to: directory.appendingPathComponent("item.bin"))
        let url = directory.appendingPathComponent("shop.json")
        try Data(file.utf8).write(to: url)
        let server = HTTPMockServer()
        try server.addEndpoints(contentsOf: url)
        try await server.start()
        return (server, directory)
    }

    /// A gRPC call over HTTP/1.1 from Python: the raw request, then the head, the messages (hex) and
    /// the trailers read from the chunked body, and the seconds it took, as JSON.
    static func call(port: UInt16, path: String, body: [UInt8] = [0, 0, 0, 0, 0], headers: [String: String] = [:]) throws -> [String: Any] {
        let extra = headers.map { "\($0.key): \($0.value)\\r\\n" }.joined()
        let result = try Tools.python("""
            import json, socket, time
            body = bytes(\(body))
            start = time.monotonic()
            s = socket.create_connection(("127.0.0.1", \(port)))
            s.sendall(b"POST \(path) HTTP/1.1\\r\\nHost: h\\r\\nContent-Type: application/grpc\\r\\nTE: trailers\\r\\n\(extra)Connection: close\\r\\nContent-Length: %d\\r\\n\\r\\n" % len(body) + body)
            data = b""
            while True:
                piece = s.recv(65536)
                if not piece: break
                data += piece
            head, rest = data.split(b"\\r\\n\\r\\n", 1)
            lines = head.decode().split("\\r\\n")
            headers = {k.lower(): v.strip() for k, v in (l.split(":", 1) for l in lines[1:])}
            payload, trailers = b"", {}
            if headers.get("transfer-encoding") == "chunked":
                while True:
                    size, rest = rest.split(b"\\r\\n", 1)
                    size = int(size, 16)
                    if size == 0: break
                    payload, rest = payload + rest[:size], rest[size + 2:]
                for line in rest.decode().split("\\r\\n"):
                    if line: k, v = line.split(":", 1); trailers[k.lower()] = v.strip()
            else:
                payload = rest
            messages = []
            while payload:
                n = int.from_bytes(payload[1:5], "big"); messages.append(payload[5:5 + n].hex()); payload = payload[5 + n:]
            print(json.dumps({"status": lines[0], "headers": headers, "messages": messages, "trailers": trailers, "seconds": time.monotonic() - start}))
            """)
        guard let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] else {
            throw CocoaError(.coderReadCorrupt, userInfo: [NSDebugDescriptionErrorKey: result.stdout + result.stderr])
        }
        return object
    }

    @Test("unary: content-type application/grpc, the message length-prefixed, grpc-status 0 as a trailer", .enabled(if: Tools.hasPython))
    func unary() async throws {
        let (server, _) = try await Self.started()
        defer { server.stop() }
        let answer = try Self.call(port: server.port, path: "/shop.Items/Get")
        #expect(answer["status"] as? String == "HTTP/1.1 200 OK")
        #expect((answer["headers"] as? [String: String])?["content-type"] == "application/grpc")
        #expect(answer["messages"] as? [String] == ["0807"])
        #expect(answer["trailers"] as? [String: String] == ["grpc-status": "0"])
    }

    @Test("server streaming: base64, a file beside the endpoints file, hex, each after its delay; grpc-timeout cuts it at the deadline with status 4",
          .enabled(if: Tools.hasPython))
    func streamingAndDeadline() async throws {
        let (server, _) = try await Self.started()
        defer { server.stop() }
        let answer = try Self.call(port: server.port, path: "/shop.Items/Watch", headers: ["grpc-timeout": "400m"])
        #expect(answer["messages"] as? [String] == ["0801", "0802"])
        #expect(answer["trailers"] as? [String: String] == ["grpc-status": "4", "grpc-message": "deadline exceeded"])
        let seconds = try #require(answer["seconds"] as? Double)
        #expect(seconds >= 0.35 && seconds < 3, "\(seconds)")
    }

    @Test("status other than 0 without messages: trailers-only, grpc-message percent-encoded; curl sees it in the headers", .enabled(if: Tools.hasPython))
    func trailersOnly() async throws {
        let (server, _) = try await Self.started()
        defer { server.stop() }
        let answer = try Self.call(port: server.port, path: "/shop.Items/Delete")
        let headers = try #require(answer["headers"] as? [String: String])
        #expect(headers["grpc-status"] == "7" && headers["grpc-message"] == "not yours: 100%25 sure" && headers["content-length"] == "0")
        #expect(answer["messages"] as? [String] == [])
    }

    @Test("each gRPC request message's bytes are in the transcript, one note each", .enabled(if: Tools.hasPython))
    func transcript() async throws {
        let (server, _) = try await Self.started()
        defer { server.stop() }
        _ = try Self.call(port: server.port, path: "/shop.Items/Get", body: [0, 0, 0, 0, 2, 0x08, 0x2A, 0, 0, 0, 0, 1, 0xFF])
        _ = try Self.call(port: server.port, path: "/shop.Items/Get", body: [0, 0, 0, 0, 9, 1])
        let notes = server.transcript.entries.compactMap { entry -> String? in if case .note(let note) = entry.event { note.text } else { nil } }
        #expect(notes == ["<- gRPC message 1, 2 bytes: 082a", "<- gRPC message 2, 1 bytes: ff",
                          "<- gRPC message 1: its prefix says 9 bytes but only 1 follow"], "\(notes)")
    }

    @Test("trailers on an endpoint response and a Swift stub: curl reads them from the chunked body; HTTP/1.0 gets none")
    func trailersOverCurl() async throws {
        let (server, _) = try await Self.started()
        defer { server.stop() }
        server.stubRequest("GET", "/stub").andReturn(200).withBody("stubbed").withTrailers(["X-Sum": "42"])
        server.stubRequest("POST", "/swift.Items/Get").andReturnGRPC([Data([0x08, 0x05])])
        let report = try Tools.curl(["--raw", "-i", "http://127.0.0.1:\(server.port)/report?sum=abc"])
        #expect(report.stdout.contains("Trailer: Checksum\r\n") && report.stdout.hasSuffix("\r\n\r\n4\r\ndone\r\n0\r\nChecksum: abc\r\n\r\n"), "\(report.stdout)")
        let stub = try Tools.curl(["--raw", "http://127.0.0.1:\(server.port)/stub"])
        #expect(stub.stdout == "7\r\nstubbed\r\n0\r\nX-Sum: 42\r\n\r\n", "\(stub.stdout)")
        let old = try Tools.curl(["--http1.0", "-i", "http://127.0.0.1:\(server.port)/stub"])
        #expect(old.stdout.contains("Content-Length: 7") && old.stdout.hasSuffix("stubbed") && !old.stdout.contains("X-Sum"), "\(old.stdout)")
        let grpc = try Tools.curl(["--raw", "-X", "POST", "-H", "Content-Type: application/grpc", "http://127.0.0.1:\(server.port)/swift.Items/Get"])
        #expect(grpc.stdout == "7\r\n\0\0\0\0\u{2}\u{8}\u{5}\r\n0\r\ngrpc-status: 0\r\n\r\n", "\(grpc.stdout)")
    }

    @Test("stub DSL: .grpc with delays and a status error, trailers-only andReturnGRPC(status:message:)", .enabled(if: Tools.hasPython))
    func stubDSL() async throws {
        let server = HTTPMockServer()
        server.stubRequest("POST", "/a.B/Stream").andReturn(.grpc([StubStream.Piece([1]), StubStream.Piece([2], delay: .milliseconds(20))],
                                                                  status: 9, message: "stopped"))
        server.stubRequest("POST", "/a.B/Fail").andReturnGRPC(status: 14, message: "down")
        try await server.start()
        defer { server.stop() }
        let stream = try Self.call(port: server.port, path: "/a.B/Stream")
        #expect(stream["messages"] as? [String] == ["01", "02"])
        #expect(stream["trailers"] as? [String: String] == ["grpc-status": "9", "grpc-message": "stopped"])
        let fail = try Self.call(port: server.port, path: "/a.B/Fail")
        #expect((fail["headers"] as? [String: String])?["grpc-status"] == "14")
    }

    @Test("endpoints errors name the gRPC key at fault, with line and column", arguments: [
        (#"{"endpoints": [{"api": "post /a", "response": {"grpc": {"status": 17}}}]}"#, "endpoints[0].response.grpc.status: a gRPC status is a whole number from 0 to 16"),
        (#"{"endpoints": [{"api": "post /a", "response": {"grpc": {"messages": [{"hex": "0"}]}}}]}"#, "endpoints[0].response.grpc.messages[0].hex: hex data"),
        (#"{"endpoints": [{"api": "post /a", "response": {"grpc": {"messages": [{"delay": 1}]}}}]}"#, "endpoints[0].response.grpc.messages[0]: a message has \"json\", \"base64\""),
        (#"{"endpoints": [{"api": "post /a", "response": {"grpc": {"messages": [{"hex": "00", "base64": "AA=="}]}}}]}"#, "give one of"),
        (#"{"endpoints": [{"api": "post /a", "response": {"grpc": {"messages": [{"file": "nope.bin"}]}}}]}"#, "endpoints[0].response.grpc.messages[0].file: cannot read"),
        (#"{"endpoints": [{"api": "post /a", "response": {"grpc": {"messages": [{"hex": "00", "delay": -1}]}}}]}"#, "messages[0].delay: a pause must be"),
        (#"{"endpoints": [{"api": "post /a", "response": {"grpc": {}, "body": "x"}}]}"#, "endpoints[0].response.body: a \"grpc\" answer has no \"body\""),
        (#"{"endpoints": [{"api": "post /a", "response": {"grpc": {"code": 1}}}]}"#, "unknown key \"code\""),
        (#"{"endpoints": [{"api": "get /a", "response": {"trailers": {"Bad Name": "x"}}}]}"#, "endpoints[0].response.trailers: \"Bad Name\" is not a field name"),
        (#"{"endpoints": [{"api": "get /a", "response": {"trailers": {"X": 1}}}]}"#, "endpoints[0].response.trailers.X"),
        (#"{"endpoints": [{"api": "get /a", "response": {"trailers": ["X"]}}]}"#, "endpoints[0].response.trailers"),
    ])
    func errors(json: String, message: String) {
        EndpointScriptTests.expectRefused(json, message)
    }
}
