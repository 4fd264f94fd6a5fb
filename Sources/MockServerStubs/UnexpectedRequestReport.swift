import MockServerCore
import MockServerHTTP
import MockServerMockData

/// What a 500 for an unexpected request says: the request, the stub that would answer it (as Swift
/// for a test, or as a JSON endpoint entry for a stub script), and the nearest stub with the part
/// that differs.
public struct UnexpectedRequestReport: Sendable {
    /// Which stub a report's text offers to paste.
    ///
    /// ```swift
    /// server.unexpectedRequestSnippet = .endpoint   // {"api": "get /pets", "response": {"status": 200}}
    /// ```
    public enum Snippet: Sendable, Equatable {
        /// A `server.stubRequest(…)` line for a Swift test (the default).
        case swift
        /// An entry for a stub script's `"endpoints"` (what `mockserver FILE` serving one offers).
        case endpoint
    }

    /// The request no stub matched.
    public let request: HTTPMockRequest
    /// The whole text, as the 500's body has it (the 404's, when mock-data folders were searched).
    public let text: String
    /// The mock-data folders searched, each with the file names tried; empty when there are none.
    package let mockDataMisses: [MockDataMiss]
    /// Swift that answers the request: a `server.stubRequest(…)` builder, pasted into a test.
    public let swiftSnippet: String
    /// A JSON endpoint entry that answers the request, to paste into a stub script's `"endpoints"`.
    public let endpointSnippet: String

    init(request: HTTPMockRequest, stubs: [Stub], misses: [MockDataMiss] = [], snippet: Snippet = .swift) {
        self.request = request
        self.mockDataMisses = misses
        let swift = Self.snippet(for: request)
        let endpoint = Self.endpoint(for: request)
        swiftSnippet = swift.joined(separator: "\n")
        endpointSnippet = endpoint
        var lines = ["MockServer: unexpected request", "", "  \(request.method) \(request.target) \(request.version)"]
        for field in request.headers { lines.append("  \(field.name): \(field.value)") }
        let body = request.body
        if !body.isEmpty { lines.append("  (\(body.count) bytes) \(String(decoding: body.prefix(500), as: UTF8.self).escapedForDisplay)") }
        for miss in misses { lines += ["", "No mock-data file answers it."] + miss.listing }
        switch snippet {
        case .swift: lines += ["", "To answer it, add:", ""] + swift.map { "  " + $0 }
        case .endpoint: lines += ["", "To answer it, add to the \"endpoints\":", "", "  " + endpoint + ","]
        }
        if let (stub, mismatch) = Self.nearest(to: request, among: stubs) {
            lines += ["", "The nearest stub, \(stub.description), differs in its \(mismatch.part.rawValue): \(mismatch.detail)."]
        } else if stubs.isEmpty && misses.isEmpty {
            lines += ["", "No stubs are registered."]
        }
        text = lines.joined(separator: "\n") + "\n"
    }

    /// Swift that answers `request`: pasted into a test, it compiles and matches it.
    static func snippet(for request: HTTPMockRequest) -> [String] {
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

    /// A stub script's endpoint entry that answers `request`: its method and target, the headers
    /// and text body it must have, and a 200.
    static func endpoint(for request: HTTPMockRequest) -> String {
        var parts = ["\"api\": " + "\(request.method.lowercased()) \(request.target)".escaped(.json)]
        var requirements: [String] = []
        let headers = request.headers.fields.filter { !ignoredHeaders.contains($0.name.lowercased()) }
        if !headers.isEmpty {
            requirements.append("\"headers\": {" + headers.map { "\($0.name.escaped(.json)): \($0.value.escaped(.json))" }.joined(separator: ", ") + "}")
        }
        if !request.body.isEmpty, let text = String(exactUTF8: request.body) {
            requirements.append("\"body\": " + text.escaped(.json))
        }
        if !requirements.isEmpty { parts.append("\"request\": {" + requirements.joined(separator: ", ") + "}") }
        parts.append("\"response\": {\"status\": 200}")
        return "{" + parts.joined(separator: ", ") + "}"
    }

    /// Headers that clients add on their own and a stub rarely means to require.
    private static let ignoredHeaders: Set<String> = ["host", "user-agent", "accept-encoding", "connection", "content-length",
                                                      "accept-language", "expect", "transfer-encoding"]

    /// The stub that matches the most parts, in order (method, path, headers, body); the most
    /// recent among equals.
    static func nearest(to request: HTTPMockRequest, among stubs: [Stub]) -> (Stub, Stub.Mismatch)? {
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
