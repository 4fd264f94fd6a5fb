extension Transcript {
    /// Something a protocol records that the core has no case of its own for (FTP's upload progress,
    /// say), with the words and figures that show it: the protocol names and renders it, the transcript
    /// only keeps it.
    public struct Note: Sendable, Hashable, CustomStringConvertible {
        /// A short name for what happened, such as `upload-settled`: the admin API's `event`.
        public let kind: String
        /// What `--verbose` prints after the connection, such as `<- 4096 bytes so far`.
        public let text: String
        /// A byte count that goes with it, if any: the admin API's `bytes`.
        public let bytes: Int?

        /// Creates a note.
        public init(kind: String, text: String, bytes: Int? = nil) {
            self.kind = kind
            self.text = text
            self.bytes = bytes
        }

        /// The text.
        public var description: String { text }
    }
}
