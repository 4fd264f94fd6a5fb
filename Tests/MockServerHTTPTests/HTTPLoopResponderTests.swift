import Foundation
import Testing
import TestSupport
import MockServer
import MockServerCore
import MockServerHTTP

/// A responder that answers on the loop: at once (`/now`), on a later turn (`/later`), or never,
/// until the client goes away (`/never`). Its task path answers differently, so a reply says which
/// path ran.
private final class LoopAnswers: HTTPLoopResponder {
    /// Signalled when the driver cancels an answer (its client went away).
    let cancelled = DispatchSemaphore(value: 0)

    private static func reply(_ text: String) -> HTTPReply {
        HTTPReply(HTTPMockResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Array(text.utf8)), name: text)
    }

    func respond(to request: HTTPMockRequest, context: HTTPRequestContext) async throws -> HTTPReply? {
        Self.reply("task")
    }

    func answer(_ request: HTTPMockRequest, context: HTTPRequestContext, on loop: EventLoop, done: @escaping (HTTPReply?) -> Void) -> () -> Void {
        switch request.path {
        case "/now":
            done(Self.reply("now"))
        case "/later":
            loop.schedule(after: .milliseconds(1)) { done(Self.reply("later")) }
        case "/none":
            done(nil)
        default:
            break
        }
        return { [cancelled] in cancelled.signal() }
    }
}

@Suite("A responder that answers on the loop, with no task", .offPool)
struct HTTPLoopResponderTests {
    /// The body of the next response on `client`.
    private func body(_ client: TestClient) throws -> String {
        var length = 0
        while case let line = try client.readLine(), !line.isEmpty {
            if line.lowercased().hasPrefix("content-length:") { length = Int(line.dropFirst(15).trimmingCharacters(in: .whitespaces)) ?? 0 }
        }
        return String(decoding: try client.read(count: length), as: UTF8.self)
    }

    @Test("its answers, at once or on a later turn, go out in order on one connection; its task path is not asked")
    func answers() throws {
        let responder = LoopAnswers()
        let server = MockServer(httpResponder: responder)
        try server.start()
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        for path in ["/later", "/now", "/later", "/now"] {
            try client.send("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try body(client) == String(path.dropFirst()))
        }
        // Pipelined: each answer waits for the one before it.
        try client.send("GET /later HTTP/1.1\r\nHost: x\r\n\r\nGET /now HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try body(client) == "later")
        #expect(try body(client) == "now")
    }

    @Test("no answer is an unmatched request, and a client that goes away cancels the answer under way")
    func unmatchedAndCancelled() throws {
        let responder = LoopAnswers()
        let server = MockServer(httpResponder: responder)
        try server.start()
        defer { server.stop() }
        let unmatched = try TestClient(port: server.port)
        try unmatched.send("GET /none HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try unmatched.readToEnd().isEmpty)

        let gone = try TestClient(port: server.port)
        try gone.send("GET /never HTTP/1.1\r\nHost: x\r\n\r\n")
        gone.reset()
        #expect(responder.cancelled.wait(timeout: .now() + 10) == .success)
    }
}
