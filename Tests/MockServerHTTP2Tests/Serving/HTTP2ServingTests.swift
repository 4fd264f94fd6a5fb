import Foundation
import Testing
import TestSupport
import MockServer
import MockServerCore
import MockServerTLS

/// HTTP/2 served on the HTTP listener, to real clients: h2c with prior knowledge, h2 through ALPN,
/// the same responders as HTTP/1.1, many streams at once, large bodies under flow control, and the
/// `--http2` modes.
@Suite("HTTP/2 serving", .offPool)
struct HTTP2ServingTests {
    private static let script = """
        {"scheme": "http", "responses": {
            "echo": {"pattern": "^POST /echo ", "commands": [{"response": {"body": "$body"}}]},
            "slow": {"pattern": "^GET /slow ", "commands": [{"pause": 0.5}, {"response": {"body": "slow\\n"}}]},
            "events": {"pattern": "^GET /events ", "commands": [{"response": {"events": [{"data": "1"}, {"data": "2", "delay": 0.05}]}}]},
            "hello": {"pattern": "^GET ", "commands": [{"response": {"headers": {"X-Mock": "yes"}, "body": "hi $method\\n"}}]}}}
        """

    private func start(_ configure: (inout MockServer.Configuration) -> Void = { _ in }) throws -> MockServer {
        var configuration = MockServer.Configuration()
        configure(&configuration)
        let server = try MockServer(script: ResponseScript(json: Self.script), configuration: configuration)
        try server.start()
        return server
    }

    @Test("curl --http2-prior-knowledge: the script's HTTP/1.1 patterns match, and the request's entry names HTTP/2 and its stream",
          .enabled(if: Tools.hasCurl))
    func priorKnowledge() throws {
        let server = try start()
        defer { server.stop() }
        let result = try Tools.curl(["--http2-prior-knowledge", "-i", "-w", "%{http_version}", "http://127.0.0.1:\(server.port)/a"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("HTTP/2 200"), "\(result.stdout)")
        #expect(result.stdout.contains("x-mock: yes"), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("hi GET\n2"), "\(result.stdout)")
        let entries = server.transcript.entries
        let input = try #require(entries.first { if case .input = $0.event { true } else { false } }, "\(entries)")
        #expect({ if case .input(let unit, "hello") = input.event { unit.text.hasPrefix("GET /a HTTP/1.1\r\nHost: 127.0.0.1:") } else { false } }(), "\(entries)")
        #expect(input.exchange == Transcript.Exchange(protocolName: "HTTP/2", stream: 1), "\(entries)")
        #expect(input.description.hasPrefix("#1 main     <- GET /a HTTP/1.1") && input.description.hasSuffix("  [hello]  (HTTP/2 stream 1)"), "\(input)")
        #expect(!entries.contains { if case .note = $0.event { true } else { false } }, "the stream is on the request's entry, not a note of its own: \(entries)")
    }

    /// Answers every request from `respond`, in a task.
    private struct AsyncResponder: HTTPMockResponder {
        func respond(to request: HTTPMockRequest, context: HTTPRequestContext) async throws -> HTTPReply? {
            HTTPReply(HTTPMockResponse(body: Array("computed for \(request.path)\n".utf8)))
        }
    }

    /// A full run queues hundreds of test tasks on Swift's cooperative pool, and tests that block
    /// hold its threads for seconds: a stream's `async` answer runs on the connection's loop, as an
    /// HTTP/1.1 request's does, not in a task that waits for that pool.
    @Test("with Swift's cooperative pool held busy, a responder's async answer still reaches an HTTP/2 stream", .enabled(if: Tools.hasCurl))
    func asyncAnswerWithoutTheCooperativePool() throws {
        let server = MockServer(httpResponder: AsyncResponder())
        try server.start()
        defer { server.stop() }
        let hold = CooperativePoolHold()
        defer { hold.release() }
        let result = try Tools.curl(maxTime: 10, ["--http2-prior-knowledge", "-w", "%{http_version}", "http://127.0.0.1:\(server.port)/a"])
        #expect(result.stdout == "computed for /a\n2", "\(result.stdout) \(result.stderr)")
    }

    @Test("the transcript: a stream's response is readable output on its request's exchange (head, body), not binary frames")
    func readableOutput() throws {
        let server = try start()
        defer { server.stop() }
        let client = try HTTP2RawClient(port: server.port)
        _ = try client.exchange([HTTP2RawClient.preface + HTTP2RawClient.headers(1, HTTP2RawClient.get("/a"))])
        let outputs = server.transcript.entries.compactMap { entry -> String? in
            guard case .output(let bytes) = entry.event else { return nil }
            return String(decoding: bytes, as: UTF8.self) + " (\(entry.exchange.map(String.init(describing:)) ?? "-"))"
        }
        #expect(outputs == ["HTTP/2 200\r\nx-mock: yes\r\ncontent-length: 7\r\n\r\n (HTTP/2 stream 1)", "hi GET\n (HTTP/2 stream 1)"])
    }

    @Test("curl --http2 on http://: Upgrade: h2c, 101, the request answered on stream 1, the next on stream 3",
          .enabled(if: Tools.hasCurl))
    func upgrade() throws {
        let server = try start()
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        let result = try Tools.curl(["--http2", "-w", "%{http_version}\n", "\(base)/a", "\(base)/b"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "hi GET\n2\nhi GET\n2\n", "\(result.stdout)")
        let entries = server.transcript.entries
        let notes = entries.compactMap { if case .note(let note) = $0.event { note.text } else { nil } }
        #expect(notes == ["switching to HTTP/2 (Upgrade: h2c)"], "\(notes)")
        let inputs = entries.filter { if case .input = $0.event { true } else { false } }
        #expect(inputs.map(\.connection) == [1, 1], "one connection: \(entries)")
        #expect(inputs.map(\.exchange) == [Transcript.Exchange(protocolName: "HTTP/2", stream: 1), Transcript.Exchange(protocolName: "HTTP/2", stream: 3)],
                "the upgraded request is stream 1: \(entries)")
        #expect(inputs.map { $0.description.hasPrefix("#1 main     <- GET /") } == [true, true], "\(entries)")
        #expect(inputs.map { $0.description.hasSuffix("  [hello]  (\($0.exchange?.description ?? "none"))") } == [true, true], "\(entries)")
        #expect(inputs.last?.description.hasSuffix("(HTTP/2 stream 3)") == true, "\(entries)")
        let refused = try start { $0.settings[MockServer.HTTP2ServerSettings.self, default: .init()].mode = .refuse }
        defer { refused.stop() }
        let plain = try Tools.curl(["--http2", "-w", "%{http_version}", "http://127.0.0.1:\(refused.port)/a"])
        #expect(plain.stdout == "hi GET\n1.1", "refuse ignores the upgrade: \(plain.stdout)")
        let plainInputs = refused.transcript.entries.filter { if case .input = $0.event { true } else { false } }
        #expect(plainInputs.count == 1 && plainInputs.allSatisfy { $0.exchange == nil && $0.description.hasSuffix("  [hello]") }, "HTTP/1.1 entries have no exchange: \(plainInputs)")
    }

    @Test("HTTP/1.1 on the same listener is unchanged", .enabled(if: Tools.hasCurl))
    func http11Alongside() throws {
        let server = try start()
        defer { server.stop() }
        let result = try Tools.curl(["--http1.1", "-w", "%{http_version}", "http://127.0.0.1:\(server.port)/a"])
        #expect(result.stdout == "hi GET\n1.1", "\(result.stdout) \(result.stderr)")
    }

    @Test("many concurrent streams on one connection (Python h2): a paused reply holds no other stream",
          .enabled(if: Tools.hasPythonModule("h2")))
    func concurrentStreams() throws {
        let server = try start()
        defer { server.stop() }
        // curl 7.88's -Z fails a second transfer on a prior-knowledge connection (nginx's too), so
        // the streams are opened by h2's client, all at once, /slow first.
        let program = """
            import socket, sys, h2.connection, h2.config, h2.events
            s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
            c = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
            c.initiate_connection()
            for n in range(41):
                c.send_headers(1 + 2 * n, [(":method", "GET"), (":path", "/slow" if n == 0 else "/n%d" % n), (":scheme", "http"), (":authority", "x")], end_stream=True)
            s.sendall(c.data_to_send())
            order = []
            while len(order) < 41:
                data = s.recv(65536)
                if not data: break
                for event in c.receive_data(data):
                    if isinstance(event, h2.events.StreamEnded): order.append(event.stream_id)
                s.sendall(c.data_to_send())
            print(len(order), order[-1])
            """
        let result = try Tools.run("python3", ["-c", program, String(server.port)])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "41 1\n", "every stream answered, the paused one last: \(result.stdout)")
        #expect(Set(server.transcript.entries.map(\.connection)).count == 1)
    }

    @Test("a 10 MB upload and its echo, under both flow-control windows", .enabled(if: Tools.hasCurl))
    func largeBodies() throws {
        let server = try start()
        defer { server.stop() }
        let body = try Tools.temporaryDirectory().appendingPathComponent("h2-body.bin")
        let bytes = Tools.randomBytes(10_000_000, seed: 251)
        try bytes.write(to: body)
        let out = try Tools.temporaryDirectory().appendingPathComponent("h2-echo.bin")
        let result = try Tools.curl(maxTime: 60, ["--http2-prior-knowledge", "--data-binary", "@\(body.path)", "-o", out.path,
                                                  "-w", "%{http_version} %{size_download}", "http://127.0.0.1:\(server.port)/echo"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "2 10000000")
        #expect(try Data(contentsOf: out) == bytes)
    }

    @Test("nghttp: 100 concurrent requests on one connection, and a 10 MB upload echoed back under flow control",
          .enabled(if: Tools.path(of: "nghttp") != nil))
    func nghttp() throws {
        let server = try start()
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        let many = try Tools.run("nghttp", ["-n", "-s", "-m", "100", "\(base)/a"], timeout: 60)
        #expect(many.status == 0, "\(many.stderr)")
        #expect(many.stdout.split(separator: "\n").filter { $0.hasSuffix(" 200    7 /a") }.count == 100, "\(many.stdout)")
        let body = try Tools.temporaryDirectory().appendingPathComponent("nghttp-body.bin")
        let bytes = Tools.randomBytes(10_000_000, seed: 253)
        try bytes.write(to: body)
        // The body is binary: cmp compares it with what was sent.
        let echo = try Tools.run("sh", ["-c", "nghttp -d \"$0\" \"$1\" | cmp - \"$0\" && echo same", body.path, "\(base)/echo"], timeout: 120)
        #expect(echo.stdout == "same\n", "\(echo.stdout) \(echo.stderr)")
    }

    @Test("server-sent events go as DATA frames after their delays", .enabled(if: Tools.hasCurl))
    func events() throws {
        let server = try start()
        defer { server.stop() }
        let result = try Tools.curl(["--http2-prior-knowledge", "-i", "http://127.0.0.1:\(server.port)/events"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("content-type: text/event-stream"), "\(result.stdout)")
        #expect(!result.stdout.lowercased().contains("transfer-encoding"), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("data: 1\n\ndata: 2\n\n"), "\(result.stdout)")
    }

    @Test("h2 over TLS through ALPN, with curl --http2", .enabled(if: Tools.hasCurl))
    func overTLS() throws {
        let tls = try TLSSettings.generated()
        let server = try start { $0.tls = tls }
        defer { server.stop() }
        let ca = try Tools.temporaryDirectory().appendingPathComponent("h2-ca.pem").path
        try #require(tls.identity.caCertificatePEM).write(toFile: ca, atomically: true, encoding: .utf8)
        let result = try Tools.curl(["--http2", "--cacert", ca, "-w", "%{http_version}", "https://127.0.0.1:\(server.port)/a"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "hi GET\n2")
        let http1 = try Tools.curl(["--http1.1", "--cacert", ca, "-w", "%{http_version}", "https://127.0.0.1:\(server.port)/a"])
        #expect(http1.stdout == "hi GET\n1.1", "\(http1.stderr)")
    }

    @Test("refuse: HTTP/1.1 only, the preface answered 400 and no h2 offered under TLS", .enabled(if: Tools.hasCurl))
    func refuse() throws {
        let tls = try TLSSettings.generated()
        let plain = try start { $0.settings[MockServer.HTTP2ServerSettings.self, default: .init()].mode = .refuse }
        defer { plain.stop() }
        let prior = try Tools.curl(["--http2-prior-knowledge", "http://127.0.0.1:\(plain.port)/a"])
        #expect(prior.status != 0)
        let secure = try start { $0.settings[MockServer.HTTP2ServerSettings.self, default: .init()].mode = .refuse; $0.tls = tls }
        defer { secure.stop() }
        let ca = try Tools.temporaryDirectory().appendingPathComponent("h2-refuse-ca.pem").path
        try #require(tls.identity.caCertificatePEM).write(toFile: ca, atomically: true, encoding: .utf8)
        let result = try Tools.curl(["--http2", "--cacert", ca, "-w", "%{http_version}", "https://127.0.0.1:\(secure.port)/a"])
        #expect(result.stdout == "hi GET\n1.1", "\(result.stderr)")
    }

    @Test("require: an HTTP/1.1 request gets 505 naming HTTP/2; HTTP/2 is served", .enabled(if: Tools.hasCurl))
    func require() throws {
        let server = try start { $0.settings[MockServer.HTTP2ServerSettings.self, default: .init()].mode = .require }
        defer { server.stop() }
        let http1 = try Tools.curl(["--http1.1", "-w", "%{http_code}", "http://127.0.0.1:\(server.port)/a"])
        #expect(http1.stdout.hasPrefix("MockServer serves only HTTP/2 here"), "\(http1.stdout)")
        #expect(http1.stdout.hasSuffix("505"), "\(http1.stdout)")
        let http2 = try Tools.curl(["--http2-prior-knowledge", "http://127.0.0.1:\(server.port)/a"])
        #expect(http2.stdout == "hi GET\n", "\(http2.stderr)")
    }

    @Test("Python httpx with http2=True", .enabled(if: Tools.hasPythonModule("httpx") && Tools.hasPythonModule("h2")))
    func httpx() throws {
        let server = try start()
        defer { server.stop() }
        let program = """
            import httpx, sys
            with httpx.Client(http2=True) as client:
                for path in ["/a", "/b"]:
                    r = client.get(sys.argv[1] + path)
                    print(r.http_version, r.status_code, r.text.strip())
                r = client.post(sys.argv[1] + "/echo", content=b"x" * 100000)
                print(r.http_version, len(r.content))
            """
        // httpx speaks h2 on http:// only through Upgrade or prior knowledge: prior knowledge here.
        let result = try Tools.run("python3", ["-c", program.replacingOccurrences(of: "http2=True", with: "http1=False, http2=True"), "http://127.0.0.1:\(server.port)"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "HTTP/2 200 hi GET\nHTTP/2 200 hi GET\nHTTP/2 100000\n", "\(result.stdout)")
    }
}
