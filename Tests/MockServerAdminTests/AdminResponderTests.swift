import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import MockServer
import MockServerAdmin
@_spi(HotPath) import MockServerCore

/// The control API answered by an `AdminResponder` on a real socket (port 0) to URLSession: the
/// route table's refusals, errors that name the culprit, and `/shutdown` handing the stop to the
/// process owner once its answer is out.
@Suite("Admin responder")
struct AdminResponderTests {
    /// A stub mock, its control API, and the calls of the API's `shutdown` handler.
    final class Harness: Sendable {
        let stubs = HTTPMockServer()
        let admin: MockServer
        /// The admin transcript's entries at each call of the shutdown handler.
        let shutdowns = Locked<[[Transcript.Entry]]>([])
        let session = URLSession(configuration: .ephemeral)

        init(onShutdown: @escaping @Sendable () -> Void = {}) throws {
            let stubs = self.stubs
            let box = Locked<MockServer?>(nil)
            let shutdowns = self.shutdowns
            let target = AdminResponder.Target(server: stubs.server, stubs: stubs) {
                shutdowns.withLock { $0.append(box.withLock { $0 }?.transcript.entries ?? []) }
                onShutdown()
            }
            admin = MockServer(httpResponder: try AdminResponder(target), configuration: .init(host: "127.0.0.1"))
            box.withLock { $0 = admin }
            try stubs.start()
            try admin.start()
        }

        func call(_ method: String, _ path: String, body: String? = nil) async throws -> (status: Int, headers: [String: String], body: String) {
            var request = URLRequest(url: admin.url(for: path))
            request.httpMethod = method
            if let body {
                request.httpBody = Data(body.utf8)
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            }
            let (data, response) = try await session.data(for: request)
            let http = try #require(response as? HTTPURLResponse)
            var headers: [String: String] = [:]
            for case (let name as String, let value as String) in http.allHeaderFields { headers[name.lowercased()] = value }
            return (http.statusCode, headers, String(decoding: data, as: UTF8.self))
        }

        func stop() {
            session.invalidateAndCancel()
            admin.stop()
            stubs.stop()
        }
    }

    @Test("an unknown path is a 404 listing every route; a known path with another method a 405 with Allow")
    func refusals() async throws {
        let harness = try Harness()
        defer { harness.stop() }
        let unknown = try await harness.call("GET", "/nothing")
        #expect(unknown.status == 404)
        let listed = try JSONReader.parse(Array(unknown.body.utf8), options: .strict).objectMembers?["paths"]
        guard case .array(let paths)? = listed?.kind else { Issue.record("no paths in \(unknown.body)"); return }
        #expect(paths.compactMap(\.stringValue) == AdminResponder.paths)
        #expect(unknown.body.contains(#""error":"no admin path GET /nothing""#))

        let put = try await harness.call("PUT", "/transcript", body: "{}")
        #expect(put.status == 405 && put.headers["allow"] == "GET", "\(put)")
        #expect(put.body == #"{"error":"PUT is not allowed on /transcript (allowed: GET)"}"# + "\n")
        let post = try await harness.call("POST", "/conditions", body: "{}")
        #expect(post.status == 405 && post.headers["allow"] == "GET, PUT, DELETE", "\(post)")
        let files = try await harness.call("POST", "/files/a.txt", body: "{}")
        #expect(files.status == 405 && files.headers["allow"] == "GET, PUT, DELETE", "\(files)")
    }

    @Test("a bad body or parameter is a 400 naming the culprit", arguments: [
        ("POST", "/set", "{not json", "the body is not a JSON object: {not json"),
        ("POST", "/set", "[1]", "the body is not a JSON object: [1]"),
        ("POST", "/set", #"{"name": 3}"#, #"the body must be {\"name\": SET}"#),
        ("PUT", "/conditions", #"{"toClient": {"latency": 1,}}"#, "the body is not JSON:"),
        ("PUT", "/conditions", "{\n \"toClient\": {\"latency\": \"soon\"}}", "(at 2:"),
        ("GET", "/transcript?since=-1", nil, "since must be a whole number, not -1"),
        ("GET", "/transcript?wait=forever", nil, "wait must be seconds from 0 to 3600, not forever"),
        ("GET", "/wait?input=x&timeout=soon", nil, "timeout must be seconds from 0 to 3600, not soon"),
    ] as [(String, String, String?, String)])
    func badInput(method: String, path: String, body: String?, message: String) async throws {
        let harness = try Harness()
        defer { harness.stop() }
        let answer = try await harness.call(method, path, body: body)
        #expect(answer.status == 400 && answer.body.hasPrefix(#"{"error":""#) && answer.body.contains(message), "\(answer)")
    }

    @Test("POST /shutdown answers {\"stopping\": true} and closes; the owner's handler runs once, after the answer's connection closed; the responder stops nothing")
    func shutdown() async throws {
        let called = AsyncStream<Void>.makeStream()
        let harness = try Harness { called.continuation.yield() }
        defer { harness.stop() }
        let answer = try await harness.call("POST", "/shutdown")
        #expect(answer.status == 200 && answer.body == #"{"stopping":true}"# + "\n")
        #expect(answer.headers["connection"]?.lowercased() == "close")
        var iterator = called.stream.makeAsyncIterator()
        await iterator.next()
        let seen = harness.shutdowns.withLock { $0 }
        #expect(seen.count == 1)
        let entries = seen.first ?? []
        let output = entries.first { entry in
            if case .output(let bytes) = entry.event { String(decoding: bytes, as: UTF8.self).contains("stopping") } else { false }
        }
        let closed = entries.first { entry in
            if case .closed = entry.event { entry.connection == output?.connection } else { false }
        }
        #expect(output != nil && closed != nil, "the handler ran before the answer's connection closed: \(entries.map(\.description))")
        // The owner decides: the servers are still running until it stops them.
        #expect(harness.admin.isRunning && harness.stubs.server.isRunning)
        #expect(try await harness.call("GET", "/info").status == 200)
    }
}
