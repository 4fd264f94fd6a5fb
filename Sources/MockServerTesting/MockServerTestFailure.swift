import MockServer

/// An error thrown inside a ``withMockServer(script:set:configuration:failOnUnexpectedInput:sourceLocation:_:)``
/// body, with the server's transcript so that the failure explains itself.
public struct MockServerTestFailure: Error, CustomStringConvertible {
    /// What the body threw.
    public let underlying: any Error
    /// The transcript when it threw.
    public let transcript: [Transcript.Entry]

    /// The error (a `URLError` by its name, number and URL), then the transcript.
    public var description: String {
        let lines = transcript.isEmpty ? "  (empty)" : transcript.map { "  \($0)" }.joined(separator: "\n")
        return "\(ReadableError.describe(underlying))\nMockServer transcript:\n\(lines)"
    }
}
