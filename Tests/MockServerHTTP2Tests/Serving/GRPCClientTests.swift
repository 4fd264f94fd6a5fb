import Foundation
import Testing
import TestSupport
import MockServer

/// gRPC answers to a real gRPC client: Python's grpcio over h2c with prior knowledge, calling with
/// generic (bytes) serializers, so no protobuf compiler is involved. Unary, server-streaming,
/// client-streaming and bidirectional calls against an endpoints file's `"grpc"` answers and a Swift
/// stub, a status error and a deadline, as grpcio reports them.
@Suite("gRPC over HTTP/2 (grpcio)", .offPool, .enabled(if: Tools.hasPythonModule("grpc")))
struct GRPCClientTests {
    private static let endpoints = #"""
        { "endpoints": [
            { "api": "post /shop.Items/Get", "response": { "grpc": { "messages": [ { "hex": "08 07" } ] } } },
            { "api": "post /shop.Items/Watch", "response": { "grpc": { "messages": [
                { "hex": "08 01" }, { "hex": "08 02", "delay": 0.1 }, { "hex": "08 03", "delay": 0.1 } ] } } },
            { "api": "post /shop.Items/Find", "response": { "grpc": { "status": 5, "message": "no item 42: 100% gone" } } },
            { "api": "post /shop.Items/Slow", "response": { "grpc": { "messages": [ { "hex": "08 01" }, { "hex": "08 02", "delay": 5 } ] } } }
        ] }
        """#

    /// The client: one call on a fresh insecure channel (h2c with prior knowledge), unary, server
    /// streaming (`stream`), client streaming (`client`) or bidirectional (`bidi`), identity
    /// serializers, the request messages as comma-separated hex; prints the messages (hex), the seconds
    /// each stream message arrived after the call began, grpcio's status code name and details, and the
    /// call's seconds.
    private static let client = """
        import grpc, json, sys, time
        port, kind, path, timeout = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[5])
        bodies = [bytes.fromhex(message) for message in sys.argv[4].split(",")]
        channel = grpc.insecure_channel("127.0.0.1:" + port)
        result = {"messages": [], "code": "OK", "details": None, "arrivals": []}
        start = time.monotonic()
        try:
            if kind == "unary":
                result["messages"].append(channel.unary_unary(path)(bodies[0], timeout=timeout).hex())
            elif kind == "client":
                result["messages"].append(channel.stream_unary(path)(iter(bodies), timeout=timeout).hex())
            else:
                call = channel.stream_stream(path)(iter(bodies), timeout=timeout) if kind == "bidi" else channel.unary_stream(path)(bodies[0], timeout=timeout)
                for message in call:
                    result["messages"].append(message.hex())
                    result["arrivals"].append(time.monotonic() - start)
        except grpc.RpcError as error:
            result["code"], result["details"] = error.code().name, error.details()
        result["seconds"] = time.monotonic() - start
        print(json.dumps(result))
        """

    /// What grpcio reported for one call.
    private struct Call: Decodable {
        let messages: [String]
        let code: String
        let details: String?
        let arrivals: [Double]
        let seconds: Double
    }

    private func start() async throws -> HTTPMockServer {
        let server = HTTPMockServer()
        try server.addEndpoints(json: Array(Self.endpoints.utf8))
        server.stubRequest("POST", "/swift.Items/Get").andReturnGRPC([Data([0x08, 0x05])])
        server.stubRequest("POST", "/swift.Items/Chat").andReturnGRPC([Data([0x08, 0x0A]), Data([0x08, 0x0B])])
        try await server.start()
        return server
    }

    private func call(_ server: HTTPMockServer, _ kind: String, _ path: String, messages: [[UInt8]] = [[0x08, 0x2A]],
                      timeout: Double = 10) throws -> Call {
        let hex = messages.map { message in message.map { String(format: "%02x", $0) }.joined() }.joined(separator: ",")
        let result = try Tools.run("python3", ["-c", Self.client, String(server.port), kind, path, hex, String(timeout)])
        do {
            return try JSONDecoder().decode(Call.self, from: Data(result.stdout.utf8))
        } catch {
            throw CocoaError(.coderReadCorrupt, userInfo: [NSDebugDescriptionErrorKey: "grpcio printed \(result.stdout) \(result.stderr)"])
        }
    }

    @Test("unary from an endpoints file and from a Swift stub (andReturnGRPC): grpcio gets the message's bytes and OK; the transcript shows the request message",
          arguments: [("/shop.Items/Get", "0807"), ("/swift.Items/Get", "0805")])
    func unary(path: String, answer: String) async throws {
        let server = try await start()
        defer { server.stop() }
        let call = try call(server, "unary", path)
        #expect(call.code == "OK", "\(call.details ?? "")")
        #expect(call.messages == [answer])
        let notes = server.transcript.entries.compactMap { entry -> String? in if case .note(let note) = entry.event { note.text } else { nil } }
        #expect(notes.contains("<- gRPC message 1, 2 bytes: 082a"), "\(notes)")
    }

    /// The request messages' notes in the transcript.
    private func requestNotes(_ server: HTTPMockServer) -> [String] {
        server.transcript.entries.compactMap { entry -> String? in
            guard case .note(let note) = entry.event, note.text.hasPrefix("<- gRPC message") else { return nil }
            return note.text
        }
    }

    private static let threeRequests: [[UInt8]] = [[0x08, 0x01], [0x08, 0x02], [0x08, 0x03]]
    private static let threeNotes = ["<- gRPC message 1, 2 bytes: 0801", "<- gRPC message 2, 2 bytes: 0802", "<- gRPC message 3, 2 bytes: 0803"]

    @Test("client streaming from an endpoints file and from a Swift stub: three request messages, one answer and OK; the transcript shows each request message",
          arguments: [("/shop.Items/Get", "0807"), ("/swift.Items/Get", "0805")])
    func clientStreaming(path: String, answer: String) async throws {
        let server = try await start()
        defer { server.stop() }
        let call = try call(server, "client", path, messages: Self.threeRequests)
        #expect(call.code == "OK", "\(call.details ?? "")")
        #expect(call.messages == [answer])
        #expect(requestNotes(server) == Self.threeNotes)
    }

    /// The server answers once the client's stream has ended (a mock's answer is decided by the
    /// whole request), so the client sends all its messages, then reads the answers as they come.
    @Test("bidirectional from an endpoints file and from a Swift stub: three request messages, the answer's messages (with their delays) and OK",
          arguments: [("/shop.Items/Watch", ["0801", "0802", "0803"]), ("/swift.Items/Chat", ["080a", "080b"])])
    func bidirectional(path: String, answers: [String]) async throws {
        let server = try await start()
        defer { server.stop() }
        let call = try call(server, "bidi", path, messages: Self.threeRequests)
        #expect(call.code == "OK", "\(call.details ?? "")")
        #expect(call.messages == answers)
        #expect(requestNotes(server) == Self.threeNotes)
    }

    @Test("server streaming: three messages, the later two each after its delay, then OK")
    func streaming() async throws {
        let server = try await start()
        defer { server.stop() }
        let call = try call(server, "stream", "/shop.Items/Watch")
        #expect(call.code == "OK", "\(call.details ?? "")")
        #expect(call.messages == ["0801", "0802", "0803"])
        #expect(call.arrivals.count == 3 && call.arrivals[2] - call.arrivals[0] >= 0.15, "\(call.arrivals)")
    }

    @Test("a trailers-only status error: grpcio reports NOT_FOUND and the message, percent-decoded")
    func statusError() async throws {
        let server = try await start()
        defer { server.stop() }
        let call = try call(server, "unary", "/shop.Items/Find")
        #expect(call.code == "NOT_FOUND")
        #expect(call.details == "no item 42: 100% gone")
        #expect(call.messages.isEmpty)
    }

    @Test("a deadline shorter than the answer's delays: the messages before it, then DEADLINE_EXCEEDED at the deadline")
    func deadline() async throws {
        let server = try await start()
        defer { server.stop() }
        let call = try call(server, "stream", "/shop.Items/Slow", timeout: 0.5)
        #expect(call.code == "DEADLINE_EXCEEDED", "\(call.details ?? "")")
        #expect(call.messages == ["0801"])
        #expect(call.seconds >= 0.4 && call.seconds < 3, "\(call.seconds)")
        // grpcio keeps its own deadline too; the server's end is seen with the grpc-timeout grpcio
        // sends (`497m` for 0.5 s) on a raw h2 stream: the trailers say 4 at the deadline.
        let raw = try Tools.python("""
            import socket, h2.connection, h2.config, h2.events
            s = socket.create_connection(("127.0.0.1", \(server.port)))
            c = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
            c.initiate_connection()
            c.send_headers(1, [(":method", "POST"), (":path", "/shop.Items/Slow"), (":scheme", "http"), (":authority", "x"),
                               ("content-type", "application/grpc"), ("te", "trailers"), ("grpc-timeout", "300m")])
            c.send_data(1, bytes(5), end_stream=True)
            s.sendall(c.data_to_send())
            while True:
                events = c.receive_data(s.recv(65536))
                s.sendall(c.data_to_send())
                trailers = [e.headers for e in events if isinstance(e, h2.events.TrailersReceived)]
                if trailers: print(dict(trailers[0])); break
                if any(isinstance(e, (h2.events.StreamEnded, h2.events.StreamReset)) for e in events): print("no trailers"); break
            """)
        #expect(raw.stdout == "{b'grpc-status': b'4', b'grpc-message': b'deadline exceeded'}\n", "\(raw.stdout) \(raw.stderr)")
    }
}
