import Foundation
import Testing
import TestSupport
import MockServer
import MockServerCore

/// An asynchronous responder of one's own, asked the same way on both protocols.
private struct EitherProtocolResponder: HTTPMockResponder {
    struct Refused: Error, CustomStringConvertible {
        var description: String { "refused on purpose" }
    }

    func respond(to request: HTTPMockRequest, context: HTTPRequestContext) async throws -> HTTPReply? {
        switch request.path {
        case "/now":
            // Never suspends: answered while its task starts, with no trip through the loop's queue.
            return HTTPReply(HTTPMockResponse(status: 200, body: Array("now\n".utf8)), name: "now")
        case "/later":
            await Task.yield()
            try await Task.sleep(for: .milliseconds(1))
            return HTTPReply(HTTPMockResponse(status: 200, body: Array("later\n".utf8)), name: "later")
        case "/throw":
            throw Refused()
        default:
            return nil
        }
    }
}

/// HTTP/1.1 and HTTP/2 ask responders through one path (`HTTPAnswering`): an answer at once, an
/// answer after a suspension, an error answered with the same 500, nothing answering.
@Suite("HTTP/2 and HTTP/1.1 ask a responder alike", .offPool)
struct HTTP2ResponderTests {
    @Test("an asynchronous responder: at once, after a suspension, an error's 500 named alike on both protocols",
          .enabled(if: Tools.hasCurl), arguments: ["--http1.1", "--http2-prior-knowledge"])
    func asynchronous(_ version: String) throws {
        let server = MockServer(httpResponder: EitherProtocolResponder())
        try server.start()
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        for path in ["now", "later"] {
            let result = try Tools.curl([version, "-s", "-w", "%{http_code}", "\(base)/\(path)"])
            #expect(result.status == 0)
            #expect(result.stdout == "\(path)\n200", "\(path): \(result.stdout) \(result.stderr)")
        }
        let failed = try Tools.curl([version, "-s", "-i", "\(base)/throw"])
        #expect(failed.stdout.hasPrefix(version == "--http1.1" ? "HTTP/1.1 500" : "HTTP/2 500"), "\(failed.stdout)")
        #expect(failed.stdout.hasSuffix("MockServer: the responder failed: refused on purpose\n"), "\(failed.stdout)")
        let names = server.transcript.entries.compactMap { entry -> String? in
            if case .input(_, let response) = entry.event { response } else { nil }
        }
        #expect(names == ["now", "later", "responder error"], "\(names)")
    }
}
