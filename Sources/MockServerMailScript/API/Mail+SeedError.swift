import MockServerEngine

extension MockServer.Mail {
    /// A seed folder that cannot be read; its description names the folder or file at fault.
    public struct SeedError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }
}
