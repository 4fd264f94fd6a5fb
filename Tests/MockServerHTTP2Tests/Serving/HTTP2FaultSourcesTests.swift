import Foundation
import Testing
import TestSupport
import MockServer

/// HTTP/2 faults from scripts and stubs, the settings a mock advertises (max concurrent streams,
/// initial window, max frame size) and what a client that ignores them gets, and a script's
/// «close», which ends its stream whole before the connection closes.
@Suite("HTTP/2 faults from scripts and stubs, and settings", .offPool)
struct HTTP2FaultSourcesTests {
    private static let script = """
        {"scheme": "http", "responses": {
            "cancel": {"pattern": "^GET /cancel ", "commands": [{"reset": "CANCEL"}]},
            "stall": {"pattern": "^GET /stall ", "commands": [{"pause": 0.05}, {"stall": true}]},
            "ok": {"pattern": "^GET ", "commands": [{"response": {"body": "ok\\n"}}]}
        }}
        """

    @Test("a script's reset command resets its stream (curl 92), and its stall sends HEADERS and holds the rest (curl 28)",
          .enabled(if: Tools.hasCurl))
    func script() throws {
        let server = try MockServer(script: ResponseScript(json: Self.script))
        try server.start()
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        let cancel = try Tools.curl(["--http2-prior-knowledge", "\(base)/cancel"])
        #expect(cancel.status == 92, "\(cancel.stderr)")
        #expect(cancel.stderr.contains("HTTP/2 stream 1 was not closed cleanly: CANCEL (err 8)"), "\(cancel.stderr)")
        let stall = try Tools.curl(maxTime: 1, ["--http2-prior-knowledge", "\(base)/stall"])
        #expect(stall.status == 28, "\(stall.stderr)")
        // On HTTP/1.1 a reset resets the connection.
        let reset = try Tools.curl(["--http1.1", "\(base)/cancel"])
        #expect(reset.status == 56, "\(reset.stderr)")
    }

    @Test("a script's HTTP/2 fault: an unknown error name is a load error; a server that refuses HTTP/2 refuses the script at start, with line and column")
    func scriptRefused() throws {
        do {
            _ = try ResponseScript(json: #"{"scheme": "http", "responses": {"a": {"pattern": "x", "commands": [{"goaway": "NOPE"}]}}}"#)
            Issue.record("NOPE was accepted")
        } catch {
            #expect("\(error)".contains("responses.a.commands[0].goaway: an HTTP/2 error name (RFC 9113 §7)"), "\(error)")
        }
        do {
            _ = try ResponseScript(json: #"{"scheme": "http", "responses": {"a": {"pattern": "x", "commands": [{"stall": 1}]}}}"#)
            Issue.record("a stall of 1 was accepted")
        } catch {
            #expect("\(error)".contains("\"stall\" takes true"), "\(error)")
        }
        var configuration = MockServer.Configuration()
        configuration.settings[MockServer.HTTP2ServerSettings.self, default: .init()].mode = .refuse
        let server = try MockServer(script: ResponseScript(json: Self.script, file: "faults.json"), configuration: configuration)
        do {
            try server.start()
            server.stop()
            Issue.record("the server started")
        } catch {
            #expect("\(error)" == "faults.json:2:67: responses.cancel.commands[0].reset: an HTTP/2 fault, and this server speaks only HTTP/1.1 (--http2 refuse)")
        }
    }

    @Test("stubs: resetStream, goAway, stalledStream, badHPACKBlock, illegalFrame as curl reports them; an unknown error name throws",
          .enabled(if: Tools.hasCurl))
    func stubs() async throws {
        let server = HTTPMockServer()
        server.stubRequest("GET", "/cancel").andReturn(try .resetStream("CANCEL"))
        server.stubRequest("GET", "/away").andReturn(try .goAway("ENHANCE_YOUR_CALM"))
        server.stubRequest("GET", "/stall").andReturn(.stalledStream)
        server.stubRequest("GET", "/hpack").andReturn(.badHPACKBlock)
        server.stubRequest("GET", "/illegal").andReturn(.illegalFrame)
        #expect(throws: StubError.unknownHTTP2Error("CANCELLED")) { try Stub.Response.resetStream("CANCELLED") }
        try await server.start()
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        let expected: [(path: String, status: Int32, message: String)] = [
            ("cancel", 92, "was not closed cleanly: CANCEL (err 8)"),
            ("away", 16, "Error in the HTTP2 framing layer"),
            ("stall", 28, "Operation timed out"),
            ("hpack", 52, "Empty reply from server"),
            ("illegal", 52, "Empty reply from server"),
        ]
        for (path, status, message) in expected {
            let result = try Tools.curl(maxTime: path == "stall" ? 1 : 20, ["--http2-prior-knowledge", "\(base)/\(path)"])
            #expect(result.status == status, "\(path): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(path): \(result.stderr)")
        }
    }

    @Test("settings: the advertised limits; a stream past max streams gets REFUSED_STREAM; a frame past the max frame size, FRAME_SIZE_ERROR (raw frames)",
          .enabled(if: Tools.hasPythonModule("hyperframe") && Tools.hasPythonModule("hpack")))
    func settings() throws {
        let program = Tools.hyperframeReader + """
            import socket, sys
            from hyperframe.frame import SettingsFrame, HeadersFrame, DataFrame, RstStreamFrame, GoAwayFrame
            from hpack import Encoder
            s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
            s.settimeout(5)
            encoder = Encoder()
            def request(sid, end):
                f = HeadersFrame(sid); f.flags.add("END_HEADERS")
                if end: f.flags.add("END_STREAM")
                f.data = encoder.encode([(":method", "POST"), (":path", "/p"), (":scheme", "http"), (":authority", "x")])
                return f.serialize()
            big = DataFrame(1); big.data = b"x" * int(sys.argv[2]); big.flags.add("END_STREAM")
            # Stream 1 stays open (its body comes last), so stream 3 is past a limit of one.
            s.sendall(b"PRI * HTTP/2.0\\r\\n\\r\\nSM\\r\\n\\r\\n" + SettingsFrame(0).serialize() + request(1, False) + request(3, True) + big.serialize())
            for frame in frames(s):
                if isinstance(frame, SettingsFrame) and "ACK" not in frame.flags:
                    print("settings", sorted(frame.settings.items()))
                if isinstance(frame, RstStreamFrame): print("reset", frame.stream_id, frame.error_code)
                if isinstance(frame, GoAwayFrame): print("goaway", frame.error_code)
                if isinstance(frame, HeadersFrame): print("headers", frame.stream_id)
                if isinstance(frame, DataFrame) and frame.stream_id == 1 and "END_STREAM" in frame.flags: print("ended", 1); s.close(); sys.exit(0)
            """
        var configuration = MockServer.Configuration()
        configuration.settings[MockServer.HTTP2ServerSettings.self, default: .init()].maxConcurrentStreams = 1
        configuration.settings[MockServer.HTTP2ServerSettings.self, default: .init()].initialWindowSize = 100_000
        configuration.settings[MockServer.HTTP2ServerSettings.self, default: .init()].maxFrameSize = 32_768
        let server = HTTPMockServer(configuration: configuration)
        server.stubRequest("POST", "/p").andReturn(.ok(body: "done"))
        try server.start()
        defer { server.stop() }
        // SETTINGS: 2 = ENABLE_PUSH, 3 = MAX_CONCURRENT_STREAMS, 4 = INITIAL_WINDOW_SIZE, 5 = MAX_FRAME_SIZE.
        let accepted = try Tools.run("python3", ["-c", program, String(server.port), "20000"])
        #expect(accepted.stdout == "settings [(2, 0), (3, 1), (4, 100000), (5, 32768)]\nreset 3 7\nheaders 1\nended 1\n", "\(accepted.stdout) \(accepted.stderr)")
        let refused = try Tools.run("python3", ["-c", program, String(server.port), "40000"])
        #expect(refused.stdout == "settings [(2, 0), (3, 1), (4, 100000), (5, 32768)]\nreset 3 7\ngoaway 6\n", "\(refused.stdout) \(refused.stderr)")
    }

    @Test("an initial window of 0 stalls every upload: curl's POST times out; a setting out of RFC 9113's range fails start()",
          .enabled(if: Tools.hasCurl))
    func windowZero() async throws {
        var configuration = MockServer.Configuration()
        configuration.settings[MockServer.HTTP2ServerSettings.self, default: .init()].initialWindowSize = 0
        let server = HTTPMockServer(configuration: configuration)
        server.stubRequest("POST", "/up").andReturn(.ok(body: "got"))
        try await server.start()
        defer { server.stop() }
        // A client may send 64 KiB before it reads the server's SETTINGS; past that, the upload waits.
        let upload = try Tools.curl(maxTime: 1, ["--http2-prior-knowledge", "--data-binary", "@-", "http://127.0.0.1:\(server.port)/up"],
                                    input: String(repeating: "x", count: 200_000))
        #expect(upload.status == 28, "\(upload.stderr)")
        let download = try Tools.curl(maxTime: 5, ["--http2-prior-knowledge", "-X", "POST", "http://127.0.0.1:\(server.port)/up"])
        #expect(download.stdout == "got", "\(download.stderr)")

        var small = MockServer.Configuration()
        small.settings[MockServer.HTTP2ServerSettings.self, default: .init()].maxFrameSize = 1024
        #expect(throws: MockServerError.invalidHTTP2Setting("http2MaxFrameSize (--http2-max-frame) is 1024: HTTP/2 allows 16384 to 16777215 (RFC 9113 §6.5.2)")) {
            try HTTPMockServer(configuration: small).start()
        }
    }

    @Test("«close» after a response larger than the client's window: the whole body and END_STREAM, then GOAWAY (Python h2)",
          .enabled(if: Tools.hasPythonModule("h2")))
    func closeFlushes() throws {
        let body = String(repeating: "x", count: 100_000)
        let script = #"{"scheme": "http", "responses": {"big": {"pattern": "^GET ", "commands": [{"response": {"body": "\#(body)"}}, "«close»"]}}}"#
        let server = try MockServer(script: ResponseScript(json: script))
        try server.start()
        defer { server.stop() }
        let program = """
            import socket, sys, h2.connection, h2.config, h2.events
            s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
            s.settimeout(5)
            c = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
            c.initiate_connection()
            c.send_headers(1, [(":method", "GET"), (":path", "/big"), (":scheme", "http"), (":authority", "x")], end_stream=True)
            s.sendall(c.data_to_send())
            received, ended = 0, False
            while True:
                data = s.recv(65536)
                if not data: break
                for event in c.receive_data(data):
                    if isinstance(event, h2.events.DataReceived):
                        received += len(event.data)
                        c.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                    if isinstance(event, h2.events.StreamEnded): ended = True
                    if isinstance(event, h2.events.ConnectionTerminated): print("goaway", event.error_code.name, "after end" if ended else "before end")
                s.sendall(c.data_to_send())
            print(received, ended)
            """
        let result = try Tools.run("python3", ["-c", program, String(server.port)])
        #expect(result.stdout == "goaway NO_ERROR after end\n100000 True\n", "\(result.stdout) \(result.stderr)")
    }

    @Test("mockserver --http2-max-streams, --http2-window, --http2-max-frame: advertised (nghttp shows the SETTINGS); bad values refused",
          .enabled(if: Tools.path(of: "nghttp") != nil))
    func commandLine() throws {
        let folder = try Tools.temporaryDirectory()
        let file = folder.appendingPathComponent("api.json")
        try Data(#"{"endpoints": [{"api": "get /a", "response": {"body": "a"}}]}"#.utf8).write(to: file)
        let command = try RunningCommand(["--http2-max-streams", "1", "--http2-window", "65536", "--http2-max-frame", "32768", file.path])
        defer { _ = command.terminate() }
        let port = try #require(command.firstLine.split(separator: ":").last.flatMap { UInt16($0) }, "first line: \(command.firstLine)")
        let nghttp = try Tools.run("nghttp", ["-v", "http://127.0.0.1:\(port)/a"], timeout: 20)
        for setting in ["[SETTINGS_MAX_CONCURRENT_STREAMS(0x03):1]", "[SETTINGS_INITIAL_WINDOW_SIZE(0x04):65536]", "[SETTINGS_MAX_FRAME_SIZE(0x05):32768]"] {
            #expect(nghttp.stdout.contains(setting), "\(nghttp.stdout)")
        }
        let usage = try Tools.run(Tools.mockserver.path, ["--http2-window", "-1", file.path])
        #expect(usage.status == 64)
        #expect(usage.stderr.contains("--http2-window takes a whole number of 0 or more, not \"-1\""), "\(usage.stderr)")
        let range = try Tools.run(Tools.mockserver.path, ["--http2-max-frame", "1000", file.path])
        #expect(range.status != 0)
        #expect(range.stderr.contains("http2MaxFrameSize (--http2-max-frame) is 1000: HTTP/2 allows 16384 to 16777215"), "\(range.stderr)")
    }
}
