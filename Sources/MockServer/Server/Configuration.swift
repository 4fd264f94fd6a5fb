import Foundation

extension MockServer {
    /// How a server listens and behaves. Every property has a default suited to tests.
    public struct Configuration: Sendable {
        /// The numeric address to listen on: `127.0.0.1` (the default), `::1`, or another local address.
        public var host: String
        /// The main port; 0 (the default) lets the system pick a free one.
        public var port: UInt16
        /// The passive-data port; 0 (the default) lets the system pick a free one.
        public var dataPort: UInt16
        /// The name `$server` gives.
        public var serverName: String
        /// The longest input line accepted, in bytes without the terminator; a longer one is
        /// recorded and its connection closed.
        public var maximumLineLength: Int
        /// How many transcript entries are kept (older ones are dropped).
        public var transcriptLimit: Int
        /// Called with each transcript entry as it is recorded, on the server's thread.
        public var transcriptObserver: (@Sendable (TranscriptEntry) -> Void)?
        /// Called with each upload once it is complete, on the server's thread.
        public var uploadHandler: (@Sendable (Upload) -> Void)?
        /// The clock for `$date`.
        public var clock: @Sendable () -> Date
        /// Where log messages go; off by default.
        public var logger: MockServerLogger

        /// Creates a configuration.
        public init(host: String = "127.0.0.1", port: UInt16 = 0, dataPort: UInt16 = 0, serverName: String = "MockServer",
                    maximumLineLength: Int = 1 << 20, transcriptLimit: Int = 100_000,
                    transcriptObserver: (@Sendable (TranscriptEntry) -> Void)? = nil,
                    uploadHandler: (@Sendable (Upload) -> Void)? = nil,
                    clock: @escaping @Sendable () -> Date = { Date() }, logger: MockServerLogger = .disabled) {
            self.host = host
            self.port = port
            self.dataPort = dataPort
            self.serverName = serverName
            self.maximumLineLength = maximumLineLength
            self.transcriptLimit = transcriptLimit
            self.transcriptObserver = transcriptObserver
            self.uploadHandler = uploadHandler
            self.clock = clock
            self.logger = logger
        }
    }
}
