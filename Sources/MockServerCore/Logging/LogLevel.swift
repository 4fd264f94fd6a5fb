extension MockServerLogger {
    /// How important a log message is, from the most detailed to the most severe.
    public enum Level: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
        /// Every input and output.
        case trace
        /// Connections opening and closing, set switches.
        case debug
        /// Starting and stopping.
        case info
        /// Inputs that matched nothing, refused or broken connections.
        case warning
        /// Failures of the server itself.
        case error

        /// Orders by severity.
        public static func < (lhs: MockServerLogger.Level, rhs: MockServerLogger.Level) -> Bool { lhs.rawValue < rhs.rawValue }

        /// The level's name.
        public var description: String {
            switch self {
            case .trace: "trace"
            case .debug: "debug"
            case .info: "info"
            case .warning: "warning"
            case .error: "error"
            }
        }
    }
}
