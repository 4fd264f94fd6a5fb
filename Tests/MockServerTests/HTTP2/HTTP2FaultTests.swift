import Foundation
import Testing
import TestSupport
import MockServer

/// An endpoints file's HTTP/2 faults, `"reset"` and `"goaway"`, as curl reports them; on HTTP/1.1
/// they act on the connection; a server that refuses HTTP/2 refuses them at load.
@Suite("HTTP/2 faults", .offPool, .serialized)
struct HTTP2FaultTests {
    private static let endpoints = """
        {"endpoints": [
            {"api": "get /ok", "response": {"body": "ok\\n"}},
            {"api": "get /refused", "response": {"reset": "REFUSED_STREAM"}},
            {"api": "get /cancel", "response": {"reset": "CANCEL"}},
            {"api": "get /away", "response": {"goaway": "ENHANCE_YOUR_CALM"}}
        ]}
        """

    private func start(_ mode: MockServer.Configuration.HTTP2Mode = .allow) async throws -> HTTPMockServer {
        var configuration = MockServer.Configuration()
        configuration.http2 = mode
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

    @Test("on an HTTP/1.1 connection a reset resets the connection and a GOAWAY closes it", .enabled(if: Tools.hasCurl))
    func onHTTP11() async throws {
        let server = try await start()
        defer { server.stop() }
        let reset = try Tools.curl(["--http1.1", "http://127.0.0.1:\(server.port)/cancel"])
        #expect(reset.status == 56, "\(reset.stderr)")
        let away = try Tools.curl(["--http1.1", "http://127.0.0.1:\(server.port)/away"])
        #expect(away.status == 52, "\(away.stderr)")
    }

    @Test("refused at load, with line and column, on a server that refuses HTTP/2; a bad error name always")
    func refusedAtLoad() throws {
        var configuration = MockServer.Configuration()
        configuration.http2 = .refuse
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
