/// One log message.
public struct LogRecord: Sendable {
    /// How important it is.
    public let level: LogLevel
    /// What happened.
    public let message: String
    /// The connection it concerns, if any.
    public let connection: Int?
}
