import Foundation
import Testing
import TestSupport
import MockServer
@_spi(HotPath) import MockServerCore
import MockServerHTTP

/// Answers `GET /stream` with a response whose body its steps work out one 4 KiB send at a time
/// (1,000 of them, each a `then` that counts itself), and `GET /count` with how many have run.
private struct CountingResponder: HTTPMockResponder {
    static let sends = 1_000
    static let piece = [UInt8](repeating: 0x61, count: 4_096)
    let counter = Locked(0)

    func respond(to request: HTTPMockRequest, context: HTTPRequestContext) async throws -> HTTPReply? {
        if request.path == "/count" { return HTTPReply(HTTPMockResponse(body: Array(String(counter.withLock { $0 }).utf8))) }
        let head = HTTPMockResponse(status: 200, headers: ["Content-Length": String(Self.sends * Self.piece.count)])
        return HTTPReply(steps: [.output(.response(head)), next(1)])
    }

    private func next(_ index: Int) -> ReplyStep<HTTPReplyOutput> {
        .then { [counter] in
            counter.withLock { $0 += 1 }
            return index < Self.sends ? [.send(Self.piece), next(index + 1)] : [.send(Self.piece)]
        }
    }
}

/// A stream's steps wait while its queue holds 64 KiB (`HTTP2ConnectionDriver.streamQueueLimit`):
/// a body worked out piece by piece behind a zero window is not worked out whole in memory.
@Suite("HTTP/2 stream queue bound", .offPool)
struct HTTP2StreamQueueTests {
    @Test("behind a zero window, a streamed body's steps stop after about 64 KiB; once the window opens, all 4,096,000 bytes come",
          .enabled(if: Tools.hasPythonModule("h2"), "drives HTTP/2 with python3's h2"))
    func stepsWaitForTheQueue() throws {
        let responder = CountingResponder()
        let server = MockServer(httpResponder: responder)
        try server.start()
        defer { server.stop() }
        // The count is asked on a second connection once the first has the stream's HEADERS: the
        // steps run in the same turn as the HEADERS are written.
        let program = """
            import socket, sys
            import h2.config, h2.connection, h2.events, h2.settings
            port = int(sys.argv[1])
            def connect(window):
                s = socket.create_connection(("127.0.0.1", port))
                c = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
                c.local_settings = h2.settings.Settings(client=True, initial_values={h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: window})
                c.initiate_connection()
                s.settimeout(20)
                return s, c
            def get(s, c, path):
                c.send_headers(1, [(":method", "GET"), (":path", path), (":scheme", "http"), (":authority", "x")], end_stream=True)
                s.sendall(c.data_to_send())
            def until(s, c, stop):
                body = b""
                while True:
                    data = s.recv(65536)
                    if not data: raise SystemExit("closed")
                    for event in c.receive_data(data):
                        if isinstance(event, h2.events.DataReceived):
                            body += event.data
                            c.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                        if stop(event): return body
                    s.sendall(c.data_to_send())
            s, c = connect(0)
            get(s, c, "/stream")
            until(s, c, lambda event: isinstance(event, h2.events.ResponseReceived))
            t, d = connect(65535)
            get(t, d, "/count")
            print(until(t, d, lambda event: isinstance(event, h2.events.StreamEnded)).decode())
            c.update_settings({h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: 2**31 - 1})
            c.increment_flow_control_window(2**31 - 1 - 65535)
            s.sendall(c.data_to_send())
            print(len(until(s, c, lambda event: isinstance(event, h2.events.StreamEnded))))
            """
        let result = try Tools.run("python3", ["-c", program, String(server.port)], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        let numbers = result.stdout.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        try #require(numbers.count == 2, "\(result.stdout)\(result.stderr)")
        // 16 sends fill 64 KiB; the 17th's `then` may run before the check.
        #expect(numbers[0] <= 17, "\(numbers[0]) of the body's \(CountingResponder.sends) steps ran behind a zero window")
        #expect(numbers[1] == CountingResponder.sends * CountingResponder.piece.count)
        #expect(responder.counter.withLock { $0 } == CountingResponder.sends)
    }
}
