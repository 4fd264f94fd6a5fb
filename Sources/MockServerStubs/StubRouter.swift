import Foundation
import MockServerCore
import MockServerHTTP
import MockServerMockData
import MockServerScript

/// The stubs and endpoints of one server, as an ``HTTPResponder``: the most recently added stub
/// that matches a request answers it; then the mock-data folders, in the order added. A request
/// nothing answers gets a 500 (a 404 when there are mock-data folders) that shows it, the files
/// tried, the Swift that would stub it, and the nearest stub with what differed.
package final class StubRouter: HTTPResponder {
    private let stubs = Locked<(all: [Stub], index: StubIndex)>(([], StubIndex()))
    private let sequence = Locked(0)
    private let unexpected = Locked<[UnexpectedRequestReport]>([])
    private let failures = Locked<[String]>([])
    private let folders = Locked<[MockDataResponder]>([])
    /// Which stub the unexpected-request reports offer to paste.
    package let reportSnippet = Locked(UnexpectedRequestReport.Snippet.swift)
    /// How many requests the stubs answered, numbering each answer for the declared orders.
    private let answers = Locked(0)
    /// The stubs' declared orders (``declareOrder(_:)``), each oldest first.
    private let orders = Locked<[[Stub]]>([])
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

    /// Adds a mock-data folder, searched after every stub and every folder added before it.
    package func addMockData(_ responder: MockDataResponder) {
        folders.withLock { $0.append(responder) }
    }

    /// Every stub, oldest first.
    package var all: [Stub] { stubs.withLock { $0.all } }

    /// Declares that `stubs` answer their requests in that order: every request of one before any
    /// of the next.
    package func declareOrder(_ stubs: [Stub]) {
        guard stubs.count > 1 else { return }
        orders.withLock { $0.append(stubs) }
    }

    /// The declared orders.
    package var declaredOrders: [[Stub]] { orders.withLock { $0 } }

    /// Removes every stub and the declared orders (hits and the cache stay).
    package func removeAll() {
        stubs.withLock { $0 = ([], StubIndex()) }
        orders.withLock { $0 = [] }
    }

    /// The requests no stub matched, in order, each with the report its 500 showed.
    package var unexpectedRequests: [UnexpectedRequestReport] { unexpected.withLock { $0 } }

    package func answerImmediately(_ request: HTTPRequest, context: HTTPRequestContext) throws -> HTTPImmediateAnswer {
        guard let (stub, parameters) = find(request) else { return .reply(mockDataReply(to: request)) }
        let number = answers.withLock { count in
            count += 1
            return count
        }
        switch stub.takeAnswer(for: request, sequence: number) {
        case .responses(let responses):
            return .reply(HTTPReply(steps: responses.first?.replySteps ?? [], name: stub.description))
        case .computed(let compute):
            return .reply(HTTPReply(steps: compute(StubRequest(request, pathParameters: parameters), cache, 0).replySteps, name: stub.description))
        case .handler(let handler):
            return .asynchronous { [self] in try await run(handler, of: stub, for: request, parameters: parameters) }
        case .webSocket(let webSocket):
            return .reply(HTTPReply(steps: [.upgrade(webSocket.upgrade(name: stub.description))], name: stub.description))
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

    /// What a request no stub matches is masked with before it is matched again: a recorded
    /// endpoint holds `token=MASKED` where the request has the token (`mockserver record`).
    private let requestMask = HTTPRequestMask.standard

    /// The most recently added stub that matches, with its path parameters; then the same for the
    /// request masked by ``requestMask``.
    private func find(_ request: HTTPRequest) -> (Stub, StubParameters)? {
        if let found = findUnmasked(request) { return found }
        return requestMask.masked(request).flatMap(findUnmasked)
    }

    private func findUnmasked(_ request: HTTPRequest) -> (Stub, StubParameters)? {
        for stub in stubs.withLock({ $0.index.candidates(method: request.method, path: request.path) }) {
            if case .success(let parameters) = stub.match(request) { return (stub, parameters) }
        }
        return nil
    }

    /// The reply of the first mock-data folder with a file for `request`, or the unexpected
    /// request's.
    private func mockDataReply(to request: HTTPRequest) -> HTTPReply {
        var misses: [MockDataMiss] = []
        for folder in folders.withLock({ $0 }) {
            switch folder.lookup(request) {
            case .found(let name, let response): return HTTPReply(response, name: name)
            case .invalid(let name, let error): return HTTPReply(MockDataResponder.invalidFileResponse(error), name: name)
            case .missing(let miss): misses.append(miss)
            }
        }
        let report = UnexpectedRequestReport(request: request, stubs: all, misses: misses, snippet: reportSnippet.withLock { $0 })
        unexpected.withLock { $0.append(report) }
        let response = misses.isEmpty
            ? HTTPResponse(status: 500, headers: ["Content-Type": "text/plain; charset=utf-8", "X-MockServer": "Unexpected Request"],
                           body: Array(report.text.utf8))
            : MockDataResponder.missResponse(text: report.text)
        return HTTPReply(steps: [.response(response)], name: "unexpected request", isUnexpected: true)
    }
}
