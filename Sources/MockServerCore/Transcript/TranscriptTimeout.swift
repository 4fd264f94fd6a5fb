extension Transcript {
    /// A wait on the transcript that ran out of time.
    public struct Timeout: Error, Sendable, CustomStringConvertible {
        /// How long the wait lasted.
        public let timeout: Duration
        /// What was being waited for.
        public let expectation: String
        /// The transcript when the wait gave up.
        public let transcript: [Transcript.Entry]

        /// Creates the error of a wait for `expectation` that lasted `timeout`.
        public init(timeout: Duration, expectation: String, transcript: [Transcript.Entry]) {
            self.timeout = timeout
            self.expectation = expectation
            self.transcript = transcript
        }

        /// The expectation, then the transcript so far, one entry a line.
        public var description: String {
            let lines = transcript.isEmpty ? "  (empty)" : transcript.map { "  \($0)" }.joined(separator: "\n")
            return "timed out after \(timeout) waiting for \(expectation); transcript so far:\n\(lines)"
        }
    }
}
