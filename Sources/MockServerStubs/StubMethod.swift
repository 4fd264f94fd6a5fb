extension Stub {
    /// The methods an endpoint is added for (`server.add(.GET, "/path") { … }`).
    public enum Method: String, Sendable, Hashable, CaseIterable {
        case GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS
    }
}
