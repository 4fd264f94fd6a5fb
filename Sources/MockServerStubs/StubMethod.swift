/// The methods an endpoint is added for (`server.add(.GET, "/path") { … }`).
public enum StubMethod: String, Sendable, Hashable, CaseIterable {
    case GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS
}
