import MockServerCore
import MockServerHTTP
import MockServerMockData

/// What a 500 for an unexpected request says: the request, the Swift that would stub it, and the
/// nearest stub with the part that differs.
public struct UnexpectedRequestReport: Sendable {
    /// The request no stub matched.
    public let request: HTTPRequest
    /// The whole text, as the 500's body has it (the 404's, when mock-data folders were searched).
    public let text: String
    /// The mock-data folders searched, each with the file names tried; empty when there are none.
    public let mockDataMisses: [MockDataMiss]

    init(request: HTTPRequest, stubs: [Stub], misses: [MockDataMiss] = []) {
        self.request = request
        self.mockDataMisses = misses
        var lines = ["MockServer: unexpected request", "", "  \(request.method) \(request.target) \(request.version)"]
        for field in request.headers { lines.append("  \(field.name): \(field.value)") }
        let body = request.body
        if !body.isEmpty { lines.append("  (\(body.count) bytes) \(String(decoding: body.prefix(500), as: UTF8.self).escapedForDisplay)") }
        for miss in misses { lines += ["", "No mock-data file answers it."] + miss.listing }
        lines += ["", "To answer it, add:", ""] + Self.snippet(for: request).map { "  " + $0 }
        if let (stub, mismatch) = Self.nearest(to: request, among: stubs) {
            lines += ["", "The nearest stub, \(stub.description), differs in its \(mismatch.part.rawValue): \(mismatch.detail)."]
        } else if stubs.isEmpty && misses.isEmpty {
            lines += ["", "No stubs are registered."]
        }
        text = lines.joined(separator: "\n") + "\n"
    }

    /// Swift that answers `request`: pasted into a test, it compiles and matches it.
    static func snippet(for request: HTTPRequest) -> [String] {
        var lines = ["server.stubRequest(\(literal(request.method)), \(literal(request.target)))"]
        let headers = request.headers.fields.filter { !ignoredHeaders.contains($0.name.lowercased()) }
        if !headers.isEmpty {
            let pairs = headers.map { "\(literal($0.name)): \(literal($0.value))" }.joined(separator: ", ")
            lines.append("    .withHeaders([\(pairs)])")
        }
        let body = request.body
        if !body.isEmpty, let text = String(exactUTF8: body) {
            lines.append("    .withBody(\(literal(text)))")
        }
        lines.append("    .andReturn(200)")
        return lines
    }

    /// Headers that clients add on their own and a stub rarely means to require.
    private static let ignoredHeaders: Set<String> = ["host", "user-agent", "accept-encoding", "connection", "content-length",
                                                      "accept-language", "expect", "transfer-encoding"]

    /// The stub that matches the most parts, in order (method, path, headers, body); the most
    /// recent among equals.
    static func nearest(to request: HTTPRequest, among stubs: [Stub]) -> (Stub, Stub.Mismatch)? {
        var best: (Stub, Stub.Mismatch)?
        for stub in stubs.reversed() {
            guard case .failure(let mismatch) = stub.match(request) else { continue }
            if best == nil || best.map({ mismatch.part > $0.1.part }) == true { best = (stub, mismatch) }
        }
        return best
    }

    /// A Swift string literal for `text`.
    static func literal(_ text: String) -> String {
        text.escaped(.swift)
    }
}
