import Foundation

/// Where the server's log messages go: off by default, a minimum level and a pluggable handler.
///
/// The handler is called on the server's event-loop thread and must return quickly.
public struct MockServerLogger: Sendable {
    /// The least important level passed to the handler; `nil` turns logging off.
    public var level: MockServerLogger.Level?
    /// Receives each message at or above ``level``.
    public var handler: @Sendable (MockServerLogger.Record) -> Void

    /// Creates a logger.
    public init(level: MockServerLogger.Level?, handler: @escaping @Sendable (MockServerLogger.Record) -> Void) {
        self.level = level
        self.handler = handler
    }

    /// No logging.
    public static let disabled = MockServerLogger(level: nil) { _ in }

    /// Writes `level: [#connection] message` lines to standard error.
    public static func standardError(level: MockServerLogger.Level = .info) -> MockServerLogger {
        MockServerLogger(level: level) { record in
            let line = "mockserver \(record.level): \(record.connection.map { "[#\($0)] " } ?? "")\(record.message)\n"
            FileHandle.standardError.write(Data(line.utf8))
        }
    }

    /// Whether messages at `level` are passed on, so callers can skip building them.
    @inline(__always)
    public func isEnabled(_ level: MockServerLogger.Level) -> Bool {
        guard let minimum = self.level else { return false }
        return level >= minimum
    }

    /// Passes a message to the handler when its level is enabled.
    @inline(__always)
    public func log(_ level: MockServerLogger.Level, _ message: @autoclosure () -> String, connection: Int? = nil) {
        guard isEnabled(level) else { return }
        handler(MockServerLogger.Record(level: level, message: message(), connection: connection))
    }
}
