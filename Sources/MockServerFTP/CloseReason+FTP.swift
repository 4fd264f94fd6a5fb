import MockServerCore

extension Transcript.CloseReason {
    /// A data connection sent everything, or read the peer's upload to its end.
    public static let transferComplete = Transcript.CloseReason.finished("transfer complete")
}
