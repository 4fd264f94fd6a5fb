import Foundation
import Testing
import TestSupport
import MockServer
import MockServerRecording

/// HTTP/2 clients through the recorder: h2c with prior knowledge (curl, nghttp, Python h2) and h2
/// over TLS, each stream's request forwarded to an HTTP/1.1 upstream, the answers back on their
/// streams, and the fixtures the same as an HTTP/1.1 client's; gRPC (grpcio) recorded and replayed.
@Suite("Recording HTTP: HTTP/2 clients", .offPool, .enabled(if: Tools.hasCurl))
struct HTTP2RecordingTests {
    /// The upstream: every answer names the request it answers; `/slow` takes a while.
    private static let upstreamScript = """
        {"scheme": "http", "responses": {
            "slow": {"pattern": "^GET /slow ", "commands": [{"pause": 0.4}, {"response": {"headers": {"X-Path": "$path"}, "body": "answer to $method $path\\n"}}]},
            "any": {"pattern": "^[A-Z]+ ", "commands": [{"response": {"headers": {"X-Path": "$path"}, "body": "answer to $method $path\\n"}}]}}}
        """

    /// A running upstream, and a recorder in front of it writing mock-data files into `folder`.
    private func start(folder: URL, _ configure: (inout MockServer.Configuration) -> Void = { _ in }) throws -> (upstream: MockServer, proxy: MockServer, recorder: HTTPRecorder) {
        let upstream = try MockServer(script: ResponseScript(json: Self.upstreamScript))
        try upstream.start()
        let recorder = try HTTPRecorder(upstream: upstream.url(for: "/"), destination: .mockData(folder: folder))
        var configuration = MockServer.Configuration()
        configure(&configuration)
        let proxy = MockServer(httpResponder: recorder, configuration: configuration)
        try proxy.start()
        return (upstream, proxy, recorder)
    }

    /// Every file of `folder`, by name, as written.
    private func files(_ folder: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where !name.hasPrefix(".") {
            result[name] = String(decoding: try Data(contentsOf: folder.appendingPathComponent(name)), as: UTF8.self)
        }
        return result
    }

    @Test("curl --http2-prior-knowledge through the recorder: the answer on the stream, the request's entry names HTTP/2, and the fixture is the one an HTTP/1.1 client's request writes")
    func priorKnowledge() throws {
        let overH2 = try Tools.temporaryDirectory().appendingPathComponent("h2")
        let overH1 = try Tools.temporaryDirectory().appendingPathComponent("h1")
        for (folder, version) in [(overH2, "--http2-prior-knowledge"), (overH1, "--http1.1")] {
            let (upstream, proxy, recorder) = try start(folder: folder)
            defer { proxy.stop(); upstream.stop() }
            let result = try Tools.curl([version, "-i", "-H", "Accept: text/plain", "-w", "%{http_version}",
                                         "http://127.0.0.1:\(proxy.port)/items/7?full=1"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasSuffix("answer to GET /items/7?full=1\n\(version == "--http1.1" ? "1.1" : "2")"), "\(result.stdout)")
            #expect(result.stdout.lowercased().contains("x-path: /items/7?full=1"), "\(result.stdout)")
            #expect(recorder.statistics.recorded == 1)
            if version != "--http1.1" {
                let entry = proxy.transcript.entries.first { if case .input = $0.event { true } else { false } }
                #expect(entry?.exchange?.protocolName == "HTTP/2" && entry?.exchange?.stream == 1, "\(String(describing: entry))")
            }
        }
        let h2 = try files(overH2)
        #expect(h2.count == 1 && h2.values.first?.contains("answer to GET /items/7?full=1") == true, "\(h2)")
        #expect(h2 == (try files(overH1)))
    }

    /// A full run queues hundreds of test tasks on Swift's cooperative pool (two threads here), and
    /// tests that block hold its threads for seconds: a stream whose answer waited for that pool went
    /// unanswered until curl gave up (exit 28). The recorder answers a stream on the loop, as it
    /// answers an HTTP/1.1 request.
    @Test("with Swift's cooperative pool held busy, curl --http2-prior-knowledge through the recorder is still answered, and the exchange recorded")
    func answeredWithoutTheCooperativePool() throws {
        let folder = try Tools.temporaryDirectory().appendingPathComponent("held")
        let (upstream, proxy, recorder) = try start(folder: folder)
        defer { proxy.stop(); upstream.stop() }
        let hold = CooperativePoolHold()
        defer { hold.release() }
        let result = try Tools.curl(maxTime: 10, ["--http2-prior-knowledge", "-w", "%{http_version}", "http://127.0.0.1:\(proxy.port)/held"])
        #expect(result.stdout == "answer to GET /held\n2", "\(result.stdout) \(result.stderr)")
        #expect(recorder.statistics.recorded == 1)
    }

    @Test("Python h2: ten concurrent streams, the slow one first, each gets its own answer; one fixture per request",
          .enabled(if: Tools.hasPythonModule("h2")))
    func concurrentStreams() throws {
        let folder = try Tools.temporaryDirectory().appendingPathComponent("streams")
        let (upstream, proxy, recorder) = try start(folder: folder)
        defer { proxy.stop(); upstream.stop() }
        let result = try Tools.python("""
            import socket, h2.connection, h2.config, h2.events
            paths = ["/slow"] + ["/p%d" % i for i in range(1, 10)]
            s = socket.create_connection(("127.0.0.1", \(proxy.port)))
            c = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
            c.initiate_connection()
            streams = {}
            for path in paths:
                sid = c.get_next_available_stream_id()
                streams[sid] = path
                c.send_headers(sid, [(":method", "GET"), (":path", path), (":scheme", "http"), (":authority", "x")], end_stream=True)
            s.sendall(c.data_to_send())
            bodies, order = {sid: b"" for sid in streams}, []
            while len(order) < len(streams):
                data = s.recv(65536)
                if not data: break
                for e in c.receive_data(data):
                    if isinstance(e, h2.events.DataReceived):
                        bodies[e.stream_id] += e.data
                        c.acknowledge_received_data(e.flow_controlled_length, e.stream_id)
                    if isinstance(e, h2.events.StreamEnded): order.append(streams[e.stream_id])
                s.sendall(c.data_to_send())
            print(all(bodies[sid] == ("answer to GET %s\\n" % path).encode() for sid, path in streams.items()), order[-1], len(order))
            """)
        #expect(result.stdout == "True /slow 10\n", "\(result.stdout) \(result.stderr)")
        #expect(recorder.statistics.recorded == 10)
        let written = try files(folder)
        #expect(written.count == 10, "\(written.keys.sorted())")
        // Each fixture's head and body answer the same request: no answer went to another stream's file.
        for (name, text) in written {
            let path = text.split(separator: "\r\n").first { $0.hasPrefix("X-Path: ") }?.dropFirst(8) ?? "?"
            #expect(text.hasSuffix("answer to GET \(path)\n"), "\(name): \(text)")
        }
    }

    @Test("nghttp: 30 requests on one connection through the recorder, each answered and recorded", .enabled(if: Tools.path(of: "nghttp") != nil))
    func nghttp() throws {
        let folder = try Tools.temporaryDirectory().appendingPathComponent("nghttp")
        let (upstream, proxy, recorder) = try start(folder: folder)
        defer { proxy.stop(); upstream.stop() }
        let urls = (1...30).map { "http://127.0.0.1:\(proxy.port)/n\($0)" }
        let result = try Tools.run("nghttp", ["-n", "-s"] + urls, timeout: 60)
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        #expect(recorder.statistics.recorded == 30)
        let written = try files(folder)
        #expect(written.count == 30)
        #expect((1...30).allSatisfy { index in written.values.contains { $0.contains("answer to GET /n\(index)\n") } })
    }

    @Test("h2 over TLS through ALPN into the recorder (curl --http2): answered and recorded like h2c")
    func overTLS() throws {
        let tls = try TLSSettings.generated()
        let folder = try Tools.temporaryDirectory().appendingPathComponent("tls")
        let (upstream, proxy, recorder) = try start(folder: folder) { $0.tls = tls }
        defer { proxy.stop(); upstream.stop() }
        let ca = try Tools.temporaryDirectory().appendingPathComponent("recorder-ca.pem").path
        try #require(tls.identity.caCertificatePEM).write(toFile: ca, atomically: true, encoding: .utf8)
        let result = try Tools.curl(["--http2", "--cacert", ca, "-w", "%{http_version}", "https://127.0.0.1:\(proxy.port)/secure"])
        #expect(result.stdout == "answer to GET /secure\n2", "\(result.stdout) \(result.stderr)")
        #expect(recorder.statistics.recorded == 1)
        #expect(try files(folder).values.first?.contains("answer to GET /secure\n") == true)
    }

    /// One grpcio call (h2c with prior knowledge, identity serializers): the reply's messages (hex),
    /// then the status code's name and details.
    private static let grpcClient = """
        import grpc, sys
        channel = grpc.insecure_channel("127.0.0.1:" + sys.argv[1])
        try:
            reply = channel.unary_unary(sys.argv[2])(bytes.fromhex("082a"), timeout=10)
            print(reply.hex(), "OK", None)
        except grpc.RpcError as error:
            print("-", error.code().name, error.details())
        """

    /// grpcio's two calls (one answered, one a status error) through a recorder in front of
    /// `upstream` writing an endpoints file, then against a replay of that file: what grpcio
    /// printed each time, the file, and how many exchanges were recorded.
    private func grpcRecordedAndReplayed(upstream: URL, upstreamCA: String? = nil) async throws -> (through: [String], replayed: [String], written: String, recorded: Int) {
        let file = try Tools.temporaryDirectory().appendingPathComponent("grpc.json")
        let recorder = try HTTPRecorder(upstream: upstream, destination: .endpoints(file: file), upstreamCA: upstreamCA)
        let proxy = MockServer(httpResponder: recorder)
        try await proxy.start()
        defer { proxy.stop() }
        let calls = ["/shop.Items/Get", "/shop.Items/Find"]
        let through = try calls.map { try Tools.run("python3", ["-c", Self.grpcClient, String(proxy.port), $0]).stdout }
        try recorder.flush()
        let replay = HTTPMockServer()
        try replay.addEndpoints(contentsOf: file)
        try await replay.start()
        defer { replay.stop() }
        let replayed = try calls.map { try Tools.run("python3", ["-c", Self.grpcClient, String(replay.port), $0]).stdout }
        return (through, replayed, String(decoding: try Data(contentsOf: file), as: UTF8.self), recorder.statistics.recorded)
    }

    @Test("grpcio through the recorder to an HTTP/1.1 upstream: the messages and the grpc-status trailers come back, the endpoints fixture keeps them, and grpcio gets the same from the replay",
          .enabled(if: Tools.hasPythonModule("grpc")))
    func grpc() async throws {
        let upstream = HTTPMockServer()
        upstream.stubRequest("POST", "/shop.Items/Get").andReturnGRPC([Data([0x08, 0x07, 0x10, 0x01])])
        upstream.stubRequest("POST", "/shop.Items/Find").andReturnGRPC(status: 5, message: "no item 42")
        try await upstream.start()
        defer { upstream.stop() }
        let result = try await grpcRecordedAndReplayed(upstream: upstream.url(for: "/"))
        #expect(result.through == ["08071001 OK None\n", "- NOT_FOUND no item 42\n"], "\(result.through)")
        #expect(result.recorded == 2)
        #expect(result.written.contains(#""trailers": { "grpc-status": "0" }"#), "\(result.written)")
        #expect(result.replayed == result.through, "\(result.replayed)\n\(result.written)")
    }

    /// A TLS configuration for an upstream, and the file its CA was written to (for `upstreamCA`).
    private func upstreamTLS() throws -> (tls: TLSSettings, caFile: String) {
        let tls = try TLSSettings.generated()
        let ca = try Tools.temporaryDirectory().appendingPathComponent("upstream-ca.pem").path
        try #require(tls.identity.caCertificatePEM).write(toFile: ca, atomically: true, encoding: .utf8)
        return (tls, ca)
    }

    @Test("an https upstream that offers h2 through ALPN: an HTTP/2 client's requests go there as HTTP/2 (a GET and a POST with a body), an HTTP/1.1 client's as HTTP/1.1, and the fixtures are the same")
    func httpsUpstreamChoosesH2() throws {
        let (tls, ca) = try upstreamTLS()
        var configuration = MockServer.Configuration()
        configuration.tls = tls
        let upstream = try MockServer(script: ResponseScript(json: Self.upstreamScript), configuration: configuration)
        try upstream.start()
        defer { upstream.stop() }
        let overH2 = try Tools.temporaryDirectory().appendingPathComponent("h2")
        let overH1 = try Tools.temporaryDirectory().appendingPathComponent("h1")
        for (folder, version) in [(overH2, "--http2-prior-knowledge"), (overH1, "--http1.1")] {
            let recorder = try HTTPRecorder(upstream: try #require(URL(string: "https://127.0.0.1:\(upstream.port)")), destination: .mockData(folder: folder),
                                            upstreamCA: ca)
            let proxy = MockServer(httpResponder: recorder)
            try proxy.start()
            defer { proxy.stop() }
            let get = try Tools.curl([version, "-i", "-w", "%{http_version}", "http://127.0.0.1:\(proxy.port)/items/7?full=1"])
            #expect(get.stdout.hasSuffix("answer to GET /items/7?full=1\n\(version == "--http1.1" ? "1.1" : "2")"), "\(get.stdout) \(get.stderr)")
            #expect(get.stdout.lowercased().contains("x-path: /items/7?full=1"), "\(get.stdout)")
            let post = try Tools.curl([version, "--data-binary", "name=seven", "http://127.0.0.1:\(proxy.port)/items"])
            #expect(post.stdout == "answer to POST /items\n", "\(post.stdout) \(post.stderr)")
            #expect(recorder.statistics.recorded == 2)
        }
        // Each client's requests reached the upstream over TLS, in the client's protocol.
        let entries = upstream.transcript.entries.compactMap { entry -> String? in
            if case .input = entry.event { entry.exchange?.description ?? "HTTP/1.1" } else { nil }
        }
        #expect(entries == ["HTTP/2 stream 1", "HTTP/2 stream 1", "HTTP/1.1", "HTTP/1.1"], "\(entries)")
        let h2 = try files(overH2)
        #expect(h2.count == 2 && h2.values.contains { $0.contains("answer to GET /items/7?full=1") }, "\(h2)")
        // The same but for the case of the header names, which HTTP/2 carries in lower case (RFC 9113 §8.2.1).
        let h1 = try files(overH1)
        #expect(h2 != h1 && h2.mapValues { $0.lowercased() } == h1.mapValues { $0.lowercased() }, "\(h2)\n\(h1)")
    }

    @Test("an https upstream that does not choose h2 (HTTP/2 refused): an HTTP/2 client's requests go as HTTP/1.1, and the second reuses the first's connection")
    func httpsUpstreamKeepsHTTP1() throws {
        let (tls, ca) = try upstreamTLS()
        var configuration = MockServer.Configuration()
        configuration.tls = tls
        configuration.settings[MockServer.HTTP2ServerSettings.self, default: .init()].mode = .refuse
        let upstream = try MockServer(script: ResponseScript(json: Self.upstreamScript), configuration: configuration)
        try upstream.start()
        defer { upstream.stop() }
        let folder = try Tools.temporaryDirectory().appendingPathComponent("fallback")
        let recorder = try HTTPRecorder(upstream: try #require(URL(string: "https://127.0.0.1:\(upstream.port)")), destination: .mockData(folder: folder), upstreamCA: ca)
        let proxy = MockServer(httpResponder: recorder)
        try proxy.start()
        defer { proxy.stop() }
        for path in ["/first", "/second"] {
            let result = try Tools.curl(["--http2-prior-knowledge", "-w", "%{http_version}", "http://127.0.0.1:\(proxy.port)\(path)"])
            #expect(result.stdout == "answer to GET \(path)\n2", "\(result.stdout) \(result.stderr)")
        }
        let inputs = upstream.transcript.entries.filter { if case .input = $0.event { true } else { false } }
        #expect(inputs.count == 2 && inputs.allSatisfy { $0.exchange == nil }, "\(inputs)")
        #expect(Set(inputs.map(\.connection)).count == 1, "\(inputs)")
        #expect(recorder.statistics.recorded == 2)
    }

    @Test("grpcio through the recorder to an https upstream that chooses h2 through ALPN: the answer and the status error come back, and replay from the endpoints file",
          .enabled(if: Tools.hasPythonModule("grpc")))
    func grpcHTTPSUpstream() async throws {
        let (tls, ca) = try upstreamTLS()
        var configuration = MockServer.Configuration()
        configuration.tls = tls
        let upstream = HTTPMockServer(configuration: configuration)
        upstream.stubRequest("POST", "/shop.Items/Get").andReturnGRPC([Data([0x08, 0x07, 0x10, 0x01])])
        upstream.stubRequest("POST", "/shop.Items/Find").andReturnGRPC(status: 5, message: "no item 42")
        try await upstream.start()
        defer { upstream.stop() }
        let result = try await grpcRecordedAndReplayed(upstream: try #require(URL(string: "https://127.0.0.1:\(upstream.port)")), upstreamCA: ca)
        let protocols = upstream.transcript.entries.compactMap { entry -> String? in
            if case .input = entry.event { entry.exchange?.protocolName ?? "HTTP/1.1" } else { nil }
        }
        #expect(protocols == ["HTTP/2", "HTTP/2"], "\(protocols)")
        #expect(result.through == ["08071001 OK None\n", "- NOT_FOUND no item 42\n"], "\(result.through)")
        #expect(result.recorded == 2)
        #expect(result.replayed == result.through, "\(result.replayed)\n\(result.written)")
    }

    @Test("mockserver record --tls --tls-ca-out: curl --http2 over TLS gets h2 and its answer, and the file is written; --http2 refuse keeps it HTTP/1.1")
    func command() throws {
        let upstream = try MockServer(script: ResponseScript(json: Self.upstreamScript))
        try upstream.start()
        defer { upstream.stop() }
        for mode in ["allow", "refuse"] {
            let directory = try Tools.temporaryDirectory()
            let folder = directory.appendingPathComponent(mode)
            let ca = directory.appendingPathComponent("ca-\(mode).pem").path
            let recorder = try RunningCommand(["record", "--upstream", "http://127.0.0.1:\(upstream.port)", "--mock-data", folder.path,
                                               "--tls", "--tls-ca-out", ca, "--http2", mode])
            let port = try #require(recorder.firstLine.split(separator: ":").last.flatMap { UInt16($0) }, "\(recorder.firstLine)")
            _ = recorder.nextLine()
            let result = try Tools.curl(["--http2", "--cacert", ca, "-w", "%{http_version}", "https://127.0.0.1:\(port)/cli"])
            #expect(result.stdout == "answer to GET /cli\n\(mode == "allow" ? "2" : "1.1")", "\(result.stdout) \(result.stderr)")
            let (status, stderr) = recorder.terminate()
            #expect(status == 0, "\(stderr)")
            #expect(try files(folder).values.first?.contains("answer to GET /cli\n") == true)
        }
    }

    @Test("an h2c:// upstream: an HTTP/1.1 client's request and an HTTP/2 client's each go upstream as HTTP/2 with prior knowledge, and are recorded")
    func h2cUpstream() throws {
        let upstream = try MockServer(script: ResponseScript(json: Self.upstreamScript))
        try upstream.start()
        defer { upstream.stop() }
        let folder = try Tools.temporaryDirectory().appendingPathComponent("h2c")
        let recorder = try HTTPRecorder(upstream: try #require(URL(string: "h2c://127.0.0.1:\(upstream.port)")), destination: .mockData(folder: folder))
        let proxy = MockServer(httpResponder: recorder)
        try proxy.start()
        defer { proxy.stop() }
        let body = try Tools.temporaryDirectory().appendingPathComponent("upload.bin")
        try Tools.randomBytes(70_000, seed: 3).write(to: body)
        for (version, path) in [("--http1.1", "/one"), ("--http2-prior-knowledge", "/two")] {
            let result = try Tools.curl([version, "-w", "%{http_version}", "http://127.0.0.1:\(proxy.port)\(path)"])
            #expect(result.stdout == "answer to GET \(path)\n\(version == "--http1.1" ? "1.1" : "2")", "\(result.stdout) \(result.stderr)")
        }
        // A body larger than the upstream's first window goes as its SETTINGS and WINDOW_UPDATEs allow
        // (kept small: the recorder's mock-data names hash the body, slowly in a debug build).
        let upload = try Tools.curl(maxTime: 60, ["--data-binary", "@\(body.path)", "http://127.0.0.1:\(proxy.port)/upload"])
        #expect(upload.stdout == "answer to POST /upload\n", "\(upload.stderr)")
        let streams = upstream.transcript.entries.compactMap { entry -> String? in
            if case .input = entry.event { entry.exchange?.description } else { nil }
        }
        #expect(streams == ["HTTP/2 stream 1", "HTTP/2 stream 1", "HTTP/2 stream 1"], "\(streams)")
        #expect(recorder.statistics.recorded == 3)
        let written = try files(folder)
        #expect(written.count == 3 && written.values.contains { $0.hasPrefix("HTTP/1.1 200 OK\r\n") && $0.hasSuffix("answer to GET /two\n") }, "\(written)")
    }

    /// A gRPC server that speaks only HTTP/2: grpcio's, with generic handlers.
    private static let grpcServer = """
        import grpc
        from concurrent import futures
        def get(request, context): return bytes.fromhex("0807") + request
        def find(request, context): context.abort(grpc.StatusCode.NOT_FOUND, "no item 42")
        class Handler(grpc.GenericRpcHandler):
            def service(self, details):
                method = {"/shop.Items/Get": get, "/shop.Items/Find": find}.get(details.method)
                return grpc.unary_unary_rpc_method_handler(method) if method else None
        server = grpc.server(futures.ThreadPoolExecutor(2), handlers=[Handler()])
        port = server.add_insecure_port("127.0.0.1:0")
        server.start()
        print(port, flush=True)
        server.wait_for_termination()
        """

    @Test("grpcio to a grpcio server through the recorder (an h2c:// upstream): the answer and the status error come back, and replay from the endpoints file",
          .enabled(if: Tools.hasPythonModule("grpc")))
    func grpcUpstream() async throws {
        let upstream = try PythonServer(Self.grpcServer)
        defer { upstream.stop() }
        let result = try await grpcRecordedAndReplayed(upstream: try #require(URL(string: "h2c://127.0.0.1:\(upstream.port)")))
        #expect(result.through == ["0807082a OK None\n", "- NOT_FOUND no item 42\n"], "\(result.through)")
        #expect(result.recorded == 2)
        #expect(result.replayed == result.through, "\(result.replayed)\n\(result.written)")
    }
}
