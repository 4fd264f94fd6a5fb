extension MockServerLogger {
    /// One log message.
    public struct Record: Sendable {
        /// How important it is.
        public let level: MockServerLogger.Level
        /// What happened.
        public let message: String
        /// The connection it concerns, if any.
        public let connection: Int?
    }
}
