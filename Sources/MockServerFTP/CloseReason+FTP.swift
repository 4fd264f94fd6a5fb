import MockServerCore

extension CloseReason {
    /// A data connection sent everything, or read the peer's upload to its end.
    public static let transferComplete = CloseReason.finished("transfer complete")
}
