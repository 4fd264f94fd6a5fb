import Foundation
import Testing
import TestSupport
import MockServer
import MockServerRecording

/// What a recording holds for a client (issue 48): an upstream answer at most `maximumBodySize`
/// (a 502 naming the limit past it), and a line relay that stops reading one side while the other
/// does not read.
@Suite("Recording limits: the largest answer recorded, and relays paced by the slower side", .offPool)
struct RecordingLimitsTests {
    /// An upstream that answers `/exact` with `limit` bytes and `/over` with one more.
    private func upstream(limit: Int) async throws -> HTTPMockServer {
        let server = HTTPMockServer()
        server.stubRequest("GET", "/exact").andReturn(.ok(body: String(repeating: "e", count: limit)))
        server.stubRequest("GET", "/over").andReturn(.ok(body: String(repeating: "o", count: limit + 1)))
        try await server.start()
        return server
    }

    private func get(_ port: UInt16, _ path: String) throws -> (status: Int32, body: String) {
        let client = try TestClient(port: port)
        try client.send("GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let answer = String(decoding: try client.readToEnd(), as: UTF8.self)
        let status = Int32(answer.split(separator: " ").dropFirst().first ?? "") ?? 0
        let body = answer.range(of: "\r\n\r\n").map { String(answer[$0.upperBound...]) } ?? ""
        return (status, body)
    }

    @Test("an answer body of exactly the limit is forwarded and recorded; one byte more gets a 502 naming the limit and writes nothing; raised: recorded")
    func answerLimit() async throws {
        let limit = 100_000
        let upstream = try await upstream(limit: limit)
        defer { upstream.stop() }
        let folder = try Tools.temporaryDirectory().appendingPathComponent("Recorded")
        let recorder = try HTTPRecorder(upstream: URL(string: "http://127.0.0.1:\(upstream.port)")!, destination: .mockData(folder: folder),
                                        maximumBodySize: limit)
        #expect(recorder.maximumBodySize == limit)
        let proxy = MockServer(httpResponder: recorder)
        try await proxy.start()
        defer { proxy.stop() }
        let exact = try get(proxy.port, "/exact")
        #expect(exact.status == 200 && exact.body.count == limit)
        let over = try get(proxy.port, "/over")
        #expect(over.status == 502)
        #expect(over.body.contains("longer than the recorder's limit of 100000 bytes") && over.body.contains("--max-body"), "\(over.body)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("GET") } == ["GET|-exact.http"])
        #expect(recorder.statistics.recorded == 1 && recorder.statistics.failed == 1)

        let raised = try HTTPRecorder(upstream: URL(string: "http://127.0.0.1:\(upstream.port)")!,
                                      destination: .mockData(folder: try Tools.temporaryDirectory()), maximumBodySize: 2 * limit)
        let raisedProxy = MockServer(httpResponder: raised)
        try await raisedProxy.start()
        defer { raisedProxy.stop() }
        let taken = try get(raisedProxy.port, "/over")
        #expect(taken.status == 200 && taken.body.count == limit + 1)
        #expect(HTTPRecorder.defaultMaximumBodySize == 64 << 20)
    }

    /// An upstream that sends `argv[1]` bytes to its first client as fast as it is let, then prints
    /// how far it got: `all`, or the count when a send waited two seconds for room.
    private static let floodingUpstream = """
        import socket, sys
        total = int(sys.argv[1])
        listener = socket.socket(); listener.bind(("127.0.0.1", 0)); listener.listen(1)
        print(listener.getsockname()[1], flush=True)
        connection, _ = listener.accept(); connection.settimeout(2)
        chunk = b"line of text\\r\\n" * 4681
        sent = 0
        try:
            while sent < total:
                sent += connection.send(chunk)
            print("all", flush=True)
        except socket.timeout:
            print(sent, flush=True)
        """

    @Test("a tcp:// recording whose client does not read stops reading the upstream: the upstream's sends wait, well short of what it would send",
          .enabled(if: Tools.hasPython))
    func relayPaced() throws {
        let upstream = try PythonServer(Self.floodingUpstream, arguments: [String(64 << 20)])
        defer { upstream.stop() }
        let script = try Tools.temporaryDirectory().appendingPathComponent("dialogue.json")
        let recorder = try RunningCommand(["record", "--upstream", "tcp://127.0.0.1:\(upstream.port)", "--script", script.path])
        let port = try #require(UInt16(recorder.firstLine.split(separator: ":").last ?? ""), "first line: \(recorder.firstLine)")
        let client = try TestClient(port: port, timeout: 20)
        // The client reads nothing: the recorder holds at most its buffers, so the upstream's
        // sends wait, well short of the 64 MiB it would send.
        let reached = upstream.nextLine()
        let sent = try #require(Int(reached), "the upstream sent \(reached): the recorder read it all for a client that reads nothing")
        #expect(sent < 32 << 20)
        client.reset()
        // Killed: writing the megabytes of dialogue the relay carried is not what is tried here.
        _ = recorder.terminate(signal: SIGKILL)
    }
}
