extension Transcript {
    /// Which of a connection's streams an entry belongs to, named by the protocol that opened it.
    ///
    /// Every connection a listener accepts is on ``main``; a protocol that opens streams of its own
    /// beside it declares their channels in an extension (FTP's `.data`, its passive and active data
    /// connections), so the transcript names them without knowing the protocol.
    ///
    /// ```swift
    /// extension Transcript.Channel {
    ///     static let data = Transcript.Channel("data")
    /// }
    /// ```
    public struct Channel: Sendable, Hashable, CustomStringConvertible {
        /// The name, as the transcript's lines and the admin API's `channel` show it.
        public let name: String

        /// A channel named `name` (a short lowercase word, such as `data`).
        public init(_ name: String) {
            self.name = name
        }

        /// The connection's own stream: what a listener accepted and the script answers.
        public static let main = Transcript.Channel("main")

        /// The name.
        public var description: String { name }
    }
}
