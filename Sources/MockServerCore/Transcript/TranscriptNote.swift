extension Transcript {
    /// Something a protocol records that the core has no case of its own for (FTP's upload progress,
    /// say), with the words and figures that show it: the protocol names and renders it, the transcript
    /// only keeps it.
    public struct Note: Sendable, Hashable, CustomStringConvertible {
        /// A short name for what happened, such as `upload-settled`: the admin API's `event`.
        public let kind: String
        /// What `--verbose` prints after the connection, such as `<- 4096 bytes so far`.
        public var text: String {
            switch content {
            case .given(let text): text
            case .deferred(let deferred): deferred.text
            }
        }
        /// A byte count that goes with it, if any: the admin API's `bytes`.
        public let bytes: Int?
        /// The text, or what renders it when it is first read.
        private let content: Content

        /// A note's text as it was made.
        private enum Content: Sendable {
            /// Given (nearly every note: no allocation beyond the string).
            case given(String)
            /// Rendered when first read.
            case deferred(TranscriptNoteText)
        }

        /// Creates a note.
        public init(kind: String, text: String, bytes: Int? = nil) {
            self.kind = kind
            content = .given(text)
            self.bytes = bytes
        }

        /// A note whose text is rendered when it is first read (then kept), not when it is recorded:
        /// for a text that costs more to make than the event it notes (a gRPC request message decoded
        /// to JSON, about a fifth of a gRPC call's instructions: BENCHMARKS.md, session 32). A note
        /// with `bytes` is kept whole by the transcript, so nothing reads it until someone asks.
        package init(kind: String, bytes: Int, rendering render: @escaping @Sendable () -> String) {
            self.kind = kind
            content = .deferred(TranscriptNoteText(rendering: render))
            self.bytes = bytes
        }

        /// The text.
        public var description: String { text }

        public static func == (lhs: Note, rhs: Note) -> Bool {
            lhs.kind == rhs.kind && lhs.bytes == rhs.bytes && lhs.text == rhs.text
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(kind)
            hasher.combine(text)
            hasher.combine(bytes)
        }
    }
}
