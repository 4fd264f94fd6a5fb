import MockServerEngine
import MockServerScript

// The composition: a stub server made through the facade speaks the standard protocols in its
// endpoints' "upgrade" scripts.
extension HTTPMockServer {
    /// Creates a stopped server.
    public convenience init(configuration: MockServer.Configuration = .init()) {
        self.init(configuration: configuration, vocabulary: .standard)
    }
}
