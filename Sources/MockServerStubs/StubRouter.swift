import Foundation
import MockServerCore
import MockServerHTTP
import MockServerScript

/// The stubs and endpoints of one server, as an ``HTTPResponder``: the most recently added stub
/// that matches a request answers it; a request none matches gets a 500 that shows it, the Swift
/// that would stub it, and the nearest stub with what differed.
package final class StubRouter: HTTPResponder {
    private let stubs = Locked<(all: [Stub], index: StubIndex)>(([], StubIndex()))
    private let sequence = Locked(0)
    private let unexpected = Locked<[UnexpectedRequestReport]>([])
    private let failures = Locked<[String]>([])
    /// The values every closure shares.
    package let cache = StubCache()

    package init() {}

    /// Registers a stub for `method` and `target`; with `sequence`, at that place in the order
    /// (an endpoints file's entries come after every stub added in code, first entry first).
    package func add(method: String, target: StubTarget, answer: Stub.Answer = .responses([StubResponse()]), sequence given: Int? = nil) -> Stub {
        let number = given ?? sequence.withLock { value in
            value += 1
            return value
        }
        let stub = Stub(sequence: number, method: method, target: target, answer: answer)
        stubs.withLock { stubs in
            stubs.all.append(stub)
            stubs.index.insert(stub)
        }
        return stub
    }

    /// What the endpoint closures threw, in order: each was answered with a 500 naming it.
    package var handlerFailures: [String] { failures.withLock { $0 } }

    /// Registers an endpoints file's entries.
    package func addEndpoints(_ script: EndpointScript) {
        EndpointStubs.register(script, with: self)
    }

    /// Every stub, oldest first.
    package var all: [Stub] { stubs.withLock { $0.all } }

    /// Removes every stub (hits and the cache stay).
    package func removeAll() {
        stubs.withLock { $0 = ([], StubIndex()) }
    }

    /// The requests no stub matched, in order, each with the report its 500 showed.
    package var unexpectedRequests: [UnexpectedRequestReport] { unexpected.withLock { $0 } }

    package func answerImmediately(_ request: HTTPRequest, context: HTTPRequestContext) throws -> HTTPImmediateAnswer {
        guard let (stub, parameters) = find(request) else { return .reply(unexpectedReply(to: request)) }
        switch stub.takeAnswer() {
        case .responses(let responses):
            return .reply(HTTPReply(steps: responses.first?.replySteps ?? [], name: stub.description))
        case .computed(let compute):
            return .reply(HTTPReply(steps: compute(StubRequest(request, pathParameters: parameters), cache, 0).replySteps, name: stub.description))
        case .handler(let handler):
            return .asynchronous { [self] in try await run(handler, of: stub, for: request, parameters: parameters) }
        }
    }

    package func respond(to request: HTTPRequest, context: HTTPRequestContext) async throws -> HTTPReply? {
        switch try answerImmediately(request, context: context) {
        case .reply(let reply): reply
        case .unmatched, .deferred: nil
        case .asynchronous(let answer): try await answer()
        }
    }

    /// The reply of `stub`'s closure to `request`; what it throws is kept for ``handlerFailures``.
    private func run(_ handler: @Sendable (StubRequest, StubCache) async throws -> StubResponse, of stub: Stub,
                     for request: HTTPRequest, parameters: StubParameters) async throws -> HTTPReply {
        let response: StubResponse
        do {
            response = try await handler(StubRequest(request, pathParameters: parameters), cache)
        } catch {
            failures.withLock { $0.append("\(stub.description) threw for \(request.method) \(request.target): \(error)") }
            throw error
        }
        return HTTPReply(steps: response.replySteps, name: stub.description)
    }

    /// The most recently added stub that matches, with its path parameters.
    private func find(_ request: HTTPRequest) -> (Stub, StubParameters)? {
        for stub in stubs.withLock({ $0.index.candidates(method: request.method, path: request.path) }) {
            if case .success(let parameters) = stub.match(request) { return (stub, parameters) }
        }
        return nil
    }

    private func unexpectedReply(to request: HTTPRequest) -> HTTPReply {
        let report = UnexpectedRequestReport(request: request, stubs: all)
        unexpected.withLock { $0.append(report) }
        let response = HTTPResponse(status: 500, headers: ["Content-Type": "text/plain; charset=utf-8", "X-MockServer": "Unexpected Request"],
                                    body: Array(report.text.utf8))
        return HTTPReply(steps: [.response(response)], name: "unexpected request", isUnexpected: true)
    }
}
