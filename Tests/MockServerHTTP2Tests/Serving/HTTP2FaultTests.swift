import Foundation
import Testing
import TestSupport
import MockServer

/// An endpoints file's HTTP/2 faults (`"reset"`, `"goaway"`, `"stall"`, `"badHPACK"`,
/// `"illegalFrame"`), as curl and Python h2 report them; the same from scripts and stubs; on HTTP/1.1
/// they act on the connection; a server that refuses HTTP/2 refuses them at load.
@Suite("HTTP/2 faults", .offPool)
struct HTTP2FaultTests {
    private static let endpoints = """
        {"endpoints": [
            {"api": "get /ok", "response": {"body": "ok\\n"}},
            {"api": "get /refused", "response": {"reset": "REFUSED_STREAM"}},
            {"api": "get /cancel", "response": {"reset": "CANCEL"}},
            {"api": "get /away", "response": {"goaway": "ENHANCE_YOUR_CALM"}},
            {"api": "get /stall", "response": {"stall": true}},
            {"api": "get /hpack", "response": {"badHPACK": true}},
            {"api": "get /illegal", "response": {"illegalFrame": true}}
        ]}
        """

    private func start(_ mode: MockServer.HTTP2ServerSettings.Mode = .allow) async throws -> HTTPMockServer {
        var configuration = MockServer.Configuration()
        configuration.settings[MockServer.HTTP2ServerSettings.self, default: .init()].mode = mode
        let server = HTTPMockServer(configuration: configuration)
        try server.addEndpoints(json: Array(Self.endpoints.utf8))
        try await server.start()
        return server
    }

    @Test("reset: RST_STREAM with the error named; curl reports the code, and retries a REFUSED_STREAM",
          .enabled(if: Tools.hasCurl))
    func reset() async throws {
        let server = try await start()
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        let cancel = try Tools.curl(["--http2-prior-knowledge", "\(base)/cancel"])
        #expect(cancel.status == 92)
        #expect(cancel.stderr.contains("HTTP/2 stream 1 was not closed cleanly: CANCEL (err 8)"), "\(cancel.stderr)")
        let refused = try Tools.curl(["--http2-prior-knowledge", "\(base)/refused"])
        #expect(refused.status == 56, "\(refused.stderr)")
        // A reset stream leaves the connection and its other streams alone.
        let after = try Tools.curl(["--http2-prior-knowledge", "\(base)/ok"])
        #expect(after.stdout == "ok\n")
    }

    @Test("goaway: GOAWAY with the error named, the last stream the one before; curl's framing error",
          .enabled(if: Tools.hasCurl))
    func goaway() async throws {
        let server = try await start()
        defer { server.stop() }
        let result = try Tools.curl(["--http2-prior-knowledge", "http://127.0.0.1:\(server.port)/away"])
        #expect(result.status == 16)
        #expect(result.stderr.contains("Error in the HTTP2 framing layer"), "\(result.stderr)")
    }

    @Test("the GOAWAY's frame: last stream 1 when stream 3 asks, the code, then the connection closes (Python h2)",
          .enabled(if: Tools.hasPythonModule("h2")))
    func goawayFrame() async throws {
        let server = try await start()
        defer { server.stop() }
        let program = """
            import socket, sys, h2.connection, h2.config, h2.events
            s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
            c = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
            c.initiate_connection()
            for sid, path in ((1, "/ok"), (3, "/away")):
                c.send_headers(sid, [(":method", "GET"), (":path", path), (":scheme", "http"), (":authority", "x")], end_stream=True)
            s.sendall(c.data_to_send())
            while True:
                data = s.recv(65536)
                if not data: break
                for event in c.receive_data(data):
                    if isinstance(event, h2.events.ConnectionTerminated): print(event.last_stream_id, event.error_code.name)
                    if isinstance(event, h2.events.StreamEnded): print("ended", event.stream_id)
            """
        let result = try Tools.run("python3", ["-c", program, String(server.port)])
        #expect(result.stdout == "ended 1\n1 ENHANCE_YOUR_CALM\n", "\(result.stdout) \(result.stderr)")
    }

    @Test("on an HTTP/1.1 connection a reset resets the connection, a stall hangs it, the others close it", .enabled(if: Tools.hasCurl))
    func onHTTP11() async throws {
        let server = try await start()
        defer { server.stop() }
        let reset = try Tools.curl(["--http1.1", "http://127.0.0.1:\(server.port)/cancel"])
        #expect(reset.status == 56, "\(reset.stderr)")
        for path in ["away", "hpack", "illegal"] {
            let closed = try Tools.curl(["--http1.1", "http://127.0.0.1:\(server.port)/\(path)"])
            #expect(closed.status == 52, "\(path): \(closed.stderr)")
        }
        let stall = try Tools.curl(maxTime: 1, ["--http1.1", "http://127.0.0.1:\(server.port)/stall"])
        #expect(stall.status == 28, "\(stall.stderr)")
    }

    @Test("stall: HEADERS, then nothing; curl's read times out with the head in hand, and the connection serves other streams",
          .enabled(if: Tools.hasCurl && Tools.hasPythonModule("h2")))
    func stall() async throws {
        let server = try await start()
        defer { server.stop() }
        let result = try Tools.curl(maxTime: 3, ["--http2-prior-knowledge", "-i", "http://127.0.0.1:\(server.port)/stall"])
        #expect(result.status == 28, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("HTTP/2 200"), "\(result.stdout)")
        #expect(result.stderr.contains("Operation timed out"), "\(result.stderr)")
        // Python h2: stream 1 gets its head and no end; stream 3, asked after, is answered.
        let program = Self.h2Client + """
            ask(1, "/stall"); ask(3, "/ok")
            for event in events(lambda seen: any(isinstance(e, h2.events.StreamEnded) for e in seen)):
                if isinstance(event, h2.events.ResponseReceived): print("head", event.stream_id)
                if isinstance(event, h2.events.StreamEnded): print("ended", event.stream_id)
            """
        let h2 = try Tools.run("python3", ["-c", program, String(server.port)])
        #expect(h2.stdout == "head 1\nhead 3\nended 3\n", "\(h2.stdout) \(h2.stderr)")
    }

    @Test("badHPACK and illegalFrame: nghttp2 ends the connection with COMPRESSION_ERROR or PROTOCOL_ERROR; curl finds an empty reply; Python h2 says PROTOCOL_ERROR",
          .enabled(if: Tools.hasCurl && Tools.hasPythonModule("h2") && Tools.path(of: "nghttp") != nil),
          arguments: [("hpack", "error_code=COMPRESSION_ERROR(0x09)"),
                      ("illegal", "error_code=PROTOCOL_ERROR(0x01), opaque_data(24)=[SETTINGS: stream_id != 0]")])
    func connectionErrors(path: String, goaway: String) async throws {
        let server = try await start()
        defer { server.stop() }
        let nghttp = try Tools.run("nghttp", ["-v", "http://127.0.0.1:\(server.port)/\(path)"], timeout: 20)
        #expect(nghttp.stdout.contains("send GOAWAY frame") && nghttp.stdout.contains(goaway), "\(nghttp.stdout)")
        let result = try Tools.curl(["--http2-prior-knowledge", "http://127.0.0.1:\(server.port)/\(path)"])
        #expect(result.status == 52, "\(result.stderr)")
        #expect(result.stderr.contains("Empty reply from server"), "\(result.stderr)")
        // Python h2 4.x reports every header block it cannot decode as a PROTOCOL_ERROR too.
        let h2 = try Tools.run("python3", ["-c", Self.h2Client + Self.failure("/\(path)"), String(server.port)])
        #expect(h2.stdout == "ProtocolError PROTOCOL_ERROR\n", "\(h2.stdout) \(h2.stderr)")
    }

    @Test("grpcio's status for each fault: CANCELLED, UNAVAILABLE, RESOURCE_EXHAUSTED, DEADLINE_EXCEEDED, INTERNAL, UNKNOWN",
          .enabled(if: Tools.hasPythonModule("grpc")))
    func grpcio() async throws {
        let endpoints = """
            {"endpoints": [
                {"api": "post /s.S/Cancel", "response": {"reset": "CANCEL"}},
                {"api": "post /s.S/Refused", "response": {"reset": "REFUSED_STREAM"}},
                {"api": "post /s.S/Calm", "response": {"reset": "ENHANCE_YOUR_CALM"}},
                {"api": "post /s.S/Away", "response": {"goaway": "NO_ERROR"}},
                {"api": "post /s.S/Stall", "response": {"stall": true}},
                {"api": "post /s.S/Hpack", "response": {"badHPACK": true}},
                {"api": "post /s.S/Illegal", "response": {"illegalFrame": true}}
            ]}
            """
        let server = HTTPMockServer()
        try server.addEndpoints(json: Array(endpoints.utf8))
        try await server.start()
        defer { server.stop() }
        let program = """
            import grpc, sys
            for method in ["Cancel", "Refused", "Calm", "Away", "Stall", "Hpack", "Illegal"]:
                # A channel of its own connection: grpcio's global subchannel pool would otherwise hand
                # the next call the connection the last fault is still tearing down.
                channel = grpc.insecure_channel("127.0.0.1:" + sys.argv[1], options=[("grpc.use_local_subchannel_pool", 1)])
                try:
                    channel.unary_unary("/s.S/" + method)(b"\\x08\\x01", timeout=1)
                    print(method, "OK")
                except grpc.RpcError as error:
                    print(method, error.code().name, error.details())
                channel.close()
            """
        let result = try Tools.run("python3", ["-c", program, String(server.port)])
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let expected = ["Cancel CANCELLED Stream removed (RST_STREAM (Received RST_STREAM with error code 8))",
                        "Refused UNAVAILABLE Stream removed (RST_STREAM (Received RST_STREAM with error code 7))",
                        "Calm RESOURCE_EXHAUSTED Stream removed (RST_STREAM (Received RST_STREAM with error code 11))",
                        "Away UNAVAILABLE Stream removed (GOAWAY received; Error code: 0; Debug Text: GOAWAY on demand)",
                        "Stall DEADLINE_EXCEEDED",
                        "Hpack INTERNAL Stream removed (Failed parsing HTTP/2 (Illegal hpack op code))",
                        "Illegal UNKNOWN Stream removed (Failed parsing HTTP/2 (Settings frame received for grpc_chttp2_stream))"]
        #expect(lines.count == expected.count, "\(result.stdout) \(result.stderr)")
        for (line, start) in zip(lines, expected) {
            #expect(line.hasPrefix(start), "\(line)")
        }
    }

    /// A Python h2 client on `sys.argv[1]`: `ask(stream, path)` sends a GET, `events(done)` reads
    /// events until `done(events so far)` or the connection's end.
    private static let h2Client = """
        import socket, sys, h2.connection, h2.config, h2.events, h2.exceptions, h2.errors
        s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
        s.settimeout(5)
        c = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
        c.initiate_connection()
        def ask(sid, path, end=True):
            c.send_headers(sid, [(":method", "GET"), (":path", path), (":scheme", "http"), (":authority", "x")], end_stream=end)
            s.sendall(c.data_to_send())
        def events(done):
            seen = []
            while not done(seen):
                data = s.recv(65536)
                if not data: break
                for event in c.receive_data(data):
                    seen.append(event)
                    yield event
                s.sendall(c.data_to_send())

        """

    /// The Python h2 program's end that prints the error the client fails the connection with.
    private static func failure(_ path: String) -> String {
        """
        ask(1, "\(path)")
        try:
            for event in events(lambda seen: False): pass
            print("no error")
        except h2.exceptions.ProtocolError as error:
            print(type(error).__name__, h2.errors.ErrorCodes(error.error_code).name)
        """
    }

    @Test("refused at load, with line and column, on a server that refuses HTTP/2; a bad error name always")
    func refusedAtLoad() throws {
        var configuration = MockServer.Configuration()
        configuration.settings[MockServer.HTTP2ServerSettings.self, default: .init()].mode = .refuse
        let server = HTTPMockServer(configuration: configuration)
        #expect(throws: ResponseFileError.self) { try server.addEndpoints(json: Array(Self.endpoints.utf8)) }
        do {
            try server.addEndpoints(json: Array(Self.endpoints.utf8), file: "api.json")
        } catch {
            #expect("\(error)" == "api.json:3:51: endpoints[1].response.reset: an HTTP/2 fault, and this server speaks only HTTP/1.1 (--http2 refuse)")
        }
        let bad = #"{"endpoints": [{"api": "get /a", "response": {"goaway": "NOPE"}}]}"#
        do {
            try HTTPMockServer().addEndpoints(json: Array(bad.utf8))
            Issue.record("NOPE was accepted")
        } catch {
            #expect("\(error)".contains("endpoints[0].response.goaway: an HTTP/2 error name (RFC 9113 §7)"), "\(error)")
        }
    }
}
