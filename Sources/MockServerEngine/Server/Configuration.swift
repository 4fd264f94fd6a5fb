import Foundation
import MockServerCore
import MockServerScript
import MockServerTLS

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
        /// How many bytes of input and output the kept transcript entries may hold between them
        /// (64 MiB by default, ``Transcript/defaultByteLimit``): past it the oldest entries are
        /// dropped, as past ``transcriptLimit``.
        public var transcriptByteLimit = Transcript.defaultByteLimit
        /// Called with each transcript entry as it is recorded, on the server's thread.
        public var transcriptObserver: (@Sendable (Transcript.Entry) -> Void)?
        /// Called with each upload once it is complete, on the server's thread.
        public var uploadHandler: (@Sendable (Upload) -> Void)?
        /// The clock for `$date`, and for WebDAV's modification times and lock timeouts.
        public var clock: @Sendable () -> Date
        /// Where log messages go; off by default.
        public var logger: MockServerLogger
        /// TLS on the main port, or `nil` (the default) for none: with ``TLSSettings/Mode-swift.enum/implicit``
        /// every connection begins with a handshake (HTTPS, implicit FTPS); with
        /// ``TLSSettings/Mode-swift.enum/explicit`` connections begin in plain text and a
        /// script's `«starttls»` begins TLS (FTP's `AUTH TLS`, SMTP's `STARTTLS`).
        public var tls: TLSSettings?
        /// Network conditions for every connection the server accepts (and makes, for FTP's active
        /// data connections): latency, bandwidth, slicing, limits. None by default, or the script's
        /// ``ResponseScript/conditions`` (these win over a script's); change them while the server
        /// runs with ``MockServer/networkConditions``.
        public var conditions: NetworkConditions?
        /// The settings of the server's protocols, each protocol's in a type of its own, read back
        /// by that type: ``MockServer.FTPServerSettings``, ``MockServer.HTTPServerSettings``, ``MockServer.HTTP2ServerSettings``, or a
        /// protocol's of your own. A protocol without its type here uses its defaults.
        ///
        /// ```swift
        /// var configuration = MockServer.Configuration()
        /// configuration.settings[MockServer.HTTP2ServerSettings.self, default: .init()].mode = .refuse
        /// configuration.settings[MockServer.FTPServerSettings.self] = MockServer.FTPServerSettings(uploadSettleTime: nil)
        /// ```
        public var settings = ScriptSettings()

        /// Creates a configuration.
        public init(host: String = "127.0.0.1", port: UInt16 = 0, dataPort: UInt16 = 0, serverName: String = "MockServer",
                    maximumLineLength: Int = 1 << 20, transcriptLimit: Int = 100_000,
                    transcriptObserver: (@Sendable (Transcript.Entry) -> Void)? = nil,
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
