import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport
import MockServer

/// Bodies in timed pieces: server-sent events and chunks, from endpoint files and Swift stubs.
@Suite("Streamed responses", .offPool)
struct StreamedResponseTests {
    static let file = #"""
        { "endpoints": [
            { "api": "get /ticks", "response": { "events": [
                { "event": "tick", "data": "1" },
                { "event": "tick", "data": "2", "delay": 0.05 },
                { "comment": "keep-alive" },
                { "id": "7", "data": "two\nlines", "retry": 2500 },
            ] } },
            { "api": "get /slow", "response": { "events": [ { "data": "first" }, { "data": "second", "delay": 30 } ], "end": "hang" } },
            { "api": "get /cut", "response": { "chunks": [ { "data": "whole piece\n" }, { "data": "this one is cut\n", "delay": 0.01 } ], "end": "cut" } },
            { "api": "get /bytes", "response": { "headers": { "Content-Type": "application/octet-stream" },
                                                 "chunks": [ { "data": { "hex": "00 01 02" } }, { "data": "tail", "delay": 0.01 } ] } },
        ] }
        """#

    static let expectedTicks = "event: tick\ndata: 1\n\nevent: tick\ndata: 2\n\n: keep-alive\n\nid: 7\ndata: two\ndata: lines\nretry: 2500\n\n"

    static func started() async throws -> HTTPMockServer {
        let server = HTTPMockServer()
        try server.addEndpoints(json: Array(file.utf8))
        try await server.start()
        return server
    }

    @Test("events from an endpoint file: text/event-stream, chunked, each field as the standard writes it; the connection serves the next request")
    func eventsOverCurl() async throws {
        let server = try await Self.started()
        defer { server.stop() }
        let result = try Tools.curl(["-N", "-D", "-", "http://127.0.0.1:\(server.port)/ticks", "http://127.0.0.1:\(server.port)/ticks"])
        #expect(result.status == 0, "\(result.stderr)")
        let parts = result.stdout.components(separatedBy: "\r\n\r\n")
        #expect(parts.count == 3, "\(result.stdout)")
        #expect(parts[0].contains("Content-Type: text/event-stream") && parts[0].contains("Transfer-Encoding: chunked") && parts[0].contains("Cache-Control: no-cache"))
        #expect(parts[1].hasPrefix(Self.expectedTicks))
        #expect(parts[2] == Self.expectedTicks)
        // One connection for both: the stream's end left it ready for the next request.
        #expect(server.transcript.entries.filter { if case .connected = $0.event { true } else { false } }.count == 1)
    }

    @Test("each event is sent when its time comes: the first arrives while the second still waits its 30 s", .enabled(if: Tools.hasPython))
    func firstEventBeforeTheWait() async throws {
        let server = try await Self.started()
        defer { server.stop() }
        // Python's requests reads the stream line by line; its 10 s timeout fails the test if the first
        // event were held back with the second.
        let result = try Tools.python("""
            import requests
            with requests.get("http://127.0.0.1:\(server.port)/slow", stream=True, timeout=10) as response:
                lines = response.iter_lines(decode_unicode=True)
                print(response.headers["Content-Type"], next(lines), repr(next(lines)))
            """)
        #expect(result.stdout == "text/event-stream data: first ''\n", "\(result.stdout)\(result.stderr)")
    }

    @Test("a stream that ends cut: the client sees a body cut short (curl exit 18); bytes pieces are sent as they are")
    func cutAndBytes() async throws {
        let server = try await Self.started()
        defer { server.stop() }
        let cut = try Tools.curl(["http://127.0.0.1:\(server.port)/cut"])
        #expect(cut.status == 18, "\(cut.stderr)")
        #expect(cut.stdout.hasPrefix("whole piece\nthis one"), "\(cut.stdout)")
        let (data, _) = try await URLSession(configuration: .ephemeral).data(from: server.url(for: "/bytes"))
        #expect(data == Data([0, 1, 2] + Array("tail".utf8)))
    }

    @Test("Swift stubs stream too: .events and .streamed; URLSession gets the whole body")
    func swiftStubs() async throws {
        let server = HTTPMockServer()
        server.stubRequest("GET", "/ticks").andReturn(.events([StubStream.Event(event: "tick", data: "1"),
                                                               StubStream.Event(event: "tick", data: "2", delay: .milliseconds(20))]))
        server.stubRequest("GET", "/progress").andReturn(.streamed(StubStream([.init("10%\n"), .init("100%\n", delay: .milliseconds(20))])))
        try await server.start()
        defer { server.stop() }
        let session = URLSession(configuration: .ephemeral)
        let (ticks, response) = try await session.data(from: server.url(for: "/ticks"))
        #expect(String(decoding: ticks, as: UTF8.self) == "event: tick\ndata: 1\n\nevent: tick\ndata: 2\n\n")
        #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "text/event-stream")
        let (progress, _) = try await session.data(from: server.url(for: "/progress"))
        #expect(progress == Data("10%\n100%\n".utf8))
    }

    /// A session delegate that passes on each piece of data it gets, then the task's end.
    final class PieceDelegate: NSObject, URLSessionDataDelegate, Sendable {
        enum Event: Sendable { case piece(Data), completed(String?) }
        let events: AsyncStream<Event>
        private let continuation: AsyncStream<Event>.Continuation

        override init() {
            (events, continuation) = AsyncStream.makeStream()
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            continuation.yield(.piece(data))
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            continuation.yield(.completed(error.map { "\($0)" }))
            continuation.finish()
        }
    }

    @Test("in-process, a session's delegate gets each piece when it is sent (Linux too); data(for:) gets the whole body")
    func inProcessPieces() async throws {
        let server = HTTPMockServer()
        // The second piece waits an hour: the first can only reach the delegate on its own.
        server.stubRequest("GET", "/slow").andReturn(.streamed(StubStream([.init("first\n"), .init("second\n", delay: .seconds(3600))], end: .hang)))
        server.stubRequest("GET", "/progress").andReturn(.streamed(StubStream([.init("10%\n"), .init("100%\n", delay: .milliseconds(20))])))
        try await server.start()
        defer { server.stop() }
        let configuration = URLSessionConfiguration.ephemeral
        try server.installInProcess(in: configuration, hosts: ["api.example.com"])
        let delegate = PieceDelegate()
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        // A request that never got its first piece ends at its timeout, which ends the events too.
        // The timeout is long because it races this test's own resumption after the first piece:
        // when the whole suite starts, Swift Testing queues hundreds of tests on the two threads of
        // the cooperative pool, and a 60 s timeout once fired before this test could cancel.
        var request = URLRequest(url: URL(string: "https://api.example.com/slow")!)
        request.timeoutInterval = 600
        let task = session.dataTask(with: request)
        task.resume()
        var events = delegate.events.makeAsyncIterator()
        let first = await events.next()
        guard case .piece(let data)? = first else {
            Issue.record("the first event was \(String(describing: first)), not a piece")
            return
        }
        #expect(data == Data("first\n".utf8))
        task.cancel()
        guard case .completed(let error)? = await events.next() else {
            Issue.record("no end after the cancel")
            return
        }
        #expect(error?.contains("cancel") == true || error?.contains("-999") == true, "\(error ?? "no error")")
        // With a completion handler FoundationNetworking keeps only the last piece: the body comes whole.
        let (progress, _) = try await session.data(from: URL(string: "https://api.example.com/progress")!)
        #expect(progress == Data("10%\n100%\n".utf8))
    }

    @Test("a streamed endpoint that cannot be is refused with its place", arguments: [
        (#"{ "endpoints": [ { "api": "get /a", "response": { "body": "x", "events": [ { "data": "1" } ] } } ] }"#, "has no \"body\" or \"json\""),
        (#"{ "endpoints": [ { "api": "get /a", "response": { "events": [ { "data": "1" } ], "chunks": [ { "data": "1" } ] } } ] }"#, "give \"events\" or \"chunks\", not both"),
        (#"{ "endpoints": [ { "api": "get /a", "response": { "events": [ { "data": "1" } ], "end": "later" } } ] }"#, "endpoints[0].response.end"),
        (#"{ "endpoints": [ { "api": "get /a", "response": { "events": [ { "event": "tick" } ] } } ] }"#, "at least one of data, comment, retry or id"),
        (#"{ "endpoints": [ { "api": "get /a", "response": { "events": [] } } ] }"#, "a non-empty array"),
        (#"{ "endpoints": [ { "api": "get /a", "response": { "chunks": [ { "delay": 1 } ] } } ] }"#, "endpoints[0].response.chunks[0]"),
    ])
    func refusals(json: String, message: String) {
        do {
            try HTTPMockServer().addEndpoints(json: Array(json.utf8))
            Issue.record("accepted: \(json)")
        } catch {
            #expect("\(error)".contains(message), "\(error)")
        }
    }
}
