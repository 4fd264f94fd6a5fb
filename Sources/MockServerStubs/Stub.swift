import Foundation
@_spi(HotPath) import MockServerCore
import MockServerHTTP
import MockServerHTTPScript

/// One stubbed request and what answers it, as registered with `stubRequest` or `add`.
///
/// Its request side and its answers can be changed while the server runs; its ``hits`` count the
/// requests it answered.
public final class Stub: Sendable, CustomStringConvertible {
    /// What answers a matching request.
    package enum Answer: Sendable {
        /// Fixed responses, in turn; the last one repeats.
        case responses([Stub.Response])
        /// A closure, with the server's cache.
        case handler(@Sendable (Stub.Request, SharedValues) async throws -> Stub.Response)
        /// A response worked out at once from the request, the cache and the hit's number (an
        /// endpoints file's templates and sequences).
        case computed(@Sendable (Stub.Request, SharedValues, Int) -> Stub.Response)
        /// A WebSocket, its handshake answered with `101` and the connection handed to a handler.
        case webSocket(WebSocketStub)
        /// A gRPC call answered by an endpoint's rules, made for each call from the request's head,
        /// the cache and the stub's name; `streams`: it answers each message as it arrives (`each`),
        /// so HTTP/2 hands it the request's body as it streams in.
        case grpcCall(streams: Bool, make: @Sendable (Stub.Request, SharedValues, String) -> GRPCCall)
    }

    struct Definition: Sendable {
        var headers = HTTPHeaderFields()
        var body: StubBody?
        var answer: Answer = .responses([Stub.Response()])
        /// Whether a computed answer (an endpoint's) is a gRPC one (``answersGRPC``).
        var computesGRPC = false
    }

    /// The order it was added in; a later stub wins over an earlier one.
    let sequence: Int
    /// The method, upper-case.
    package let method: String
    let target: StubTarget
    /// Read on every request the stub is tried for, as ``record`` is written on every answer.
    private let definition: Locked<Definition>
    private let record = Locked(StubHits())

    init(sequence: Int, method: String, target: StubTarget, answer: Answer = .responses([Stub.Response()])) {
        self.sequence = sequence
        self.method = method.uppercased()
        self.target = target
        self.definition = Locked(Definition(answer: answer))
        self.description = "\(self.method) \(target.description)"
    }

    /// How many requests it answered.
    public var hits: Int { record.withLock { $0.count } }

    /// What it answered: the count, per request path, and the first and last answer.
    package var answered: StubHits { record.withLock { $0 } }

    /// `POST /dogs.json`, as added: made once, as every answer carries it as the transcript's name.
    public let description: String

    func update(_ change: (inout Definition) -> Void) {
        definition.withLock(change)
    }

    var current: Definition { definition.withLock { $0 } }

    /// The part of a request a stub looks at, in the order they are checked.
    enum Part: String, Sendable, Comparable {
        case method, path, headers, body

        static func < (lhs: Part, rhs: Part) -> Bool { lhs.order < rhs.order }
        private var order: Int { [.method, .path, .headers, .body].firstIndex(of: self) ?? 0 }
    }

    /// The path parameters when `request` matches, or the first part that does not; `requestMethod`
    /// replaces the request's own method (a `HEAD` tried as a `GET`).
    func match(_ request: HTTPMockRequest, as requestMethod: String? = nil) -> Result<Stub.Parameters, Mismatch> {
        let asked = requestMethod ?? request.method
        guard asked == method || asked.uppercased() == method else { return .failure(Mismatch(part: .method, detail: "method \(asked), not \(method)")) }
        guard let parameters = target.match(request) else {
            return .failure(Mismatch(part: .path, detail: "target \(request.target), not \(target.description)"))
        }
        let definition = current
        for header in definition.headers where request.headers[header.name] != header.value {
            let actual = request.headers[header.name].map { "\"\($0)\"" } ?? "missing"
            return .failure(Mismatch(part: .headers, detail: "header \(header.name): \(actual), not \"\(header.value)\""))
        }
        if let body = definition.body, !body.matches(request.body) {
            return .failure(Mismatch(part: .body, detail: "body is not \(body.description)"))
        }
        return .success(parameters)
    }

    /// Why a stub did not match: the first part that differs.
    struct Mismatch: Error, Sendable {
        let part: Part
        let detail: String
    }

    /// Whether it answers a gRPC call message by message as its request streams in.
    var streamsGRPC: Bool {
        if case .grpcCall(streams: true, make: _) = current.answer { return true }
        return false
    }

    /// Whether it upgrades to a WebSocket (which a `HEAD` cannot).
    var isWebSocket: Bool {
        if case .webSocket = current.answer { return true }
        return false
    }

    /// Counts a hit on `request`, the server's answer number `sequence`, and returns what answers
    /// it with `hit`, how many requests it answered before this one: a sequence's response for
    /// it is the `hit`th (the last once past the end), a computed response is worked out with it.
    /// (Nothing is made here for one request: the answer is read as it is stored.)
    func takeAnswer(for request: HTTPMockRequest, sequence: Int) -> (answer: Answer, hit: Int) {
        let hit = record.withLock { record in
            record.add(request, sequence: sequence)
        }
        return (definition.withLock { $0.answer }, hit)
    }
}
