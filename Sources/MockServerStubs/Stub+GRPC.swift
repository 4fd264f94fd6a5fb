import MockServerHTTP

extension Stub {
    /// Whether it answers gRPC calls: one of its fixed responses is a gRPC answer, or it is an
    /// endpoint with a `"grpc"` response. A browser's CORS preflight for its path is then answered
    /// for it (``StubRouter``), as gRPC-Web from another origin needs.
    var answersGRPC: Bool {
        let definition = current
        if definition.computesGRPC { return true }
        if case .responses(let responses) = definition.answer { return responses.contains { $0.grpc != nil } }
        return false
    }
}
