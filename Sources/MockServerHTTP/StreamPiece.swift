extension HTTPMockResponse {
    /// One piece of a body sent in timed pieces, and the wait before it: a stub's (``StubStream/Piece``
    /// names it), an endpoints file's `"chunks"` and a script's, each sent as one chunk.
    ///
    /// ```swift
    /// StubStream([StubStream.Piece("data: 1\n\n"), StubStream.Piece("data: 2\n\n", delay: .milliseconds(100))])
    /// ```
    public struct StreamPiece: Sendable, Hashable {
        /// The bytes.
        public var bytes: [UInt8]
        /// The wait before them, after the previous piece (or the head).
        public var delay: Duration?

        /// A piece of `bytes`, sent after `delay`.
        public init(_ bytes: [UInt8], delay: Duration? = nil) {
            self.bytes = bytes
            self.delay = delay
        }

        /// A piece of text, sent after `delay`.
        public init(_ text: String, delay: Duration? = nil) {
            self.init(Array(text.utf8), delay: delay)
        }
    }
}
