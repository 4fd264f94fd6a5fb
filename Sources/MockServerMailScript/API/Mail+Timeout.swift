import MockServerEngine

extension MockServer.Mail {
    /// A wait for a message that ran out of time; its description lists what did arrive.
    public struct Timeout: Error, Sendable, CustomStringConvertible {
        public let description: String
    }
}
