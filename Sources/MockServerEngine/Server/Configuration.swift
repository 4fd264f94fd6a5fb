import Foundation
import MockServerCore
import MockServerHTTP
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
        /// How long an FTP upload's data connection must be quiet, once its bytes have begun, before
        /// the script goes on (its `226`) while the rest is still read to the end; `nil` or zero: only
        /// at the end. A script's `upload-settle` overrides it.
        ///
        /// FoundationNetworking's FTP upload on Linux keeps the data connection open until it reads
        /// the `226`, which a strict server sends only after the connection's end: both wait until
        /// libcurl gives up after a minute. curl, ftplib and lftp close within milliseconds, so the
        /// rule does not fire for them. A client that pauses longer than this mid-upload sees an early
        /// `226`; every byte it sends is still recorded, and the upload completes at the end.
        public var uploadSettleTime: Duration?
        /// The longest FTP upload taken (`STOR`, `APPE`, a script's `«upload»`), in bytes: 64 MiB by
        /// default. An upload is held in memory until it ends (and kept, as the fake file system's
        /// file), so past this the data connection is closed, nothing is kept, and the client gets
        /// `552` naming the limit.
        public var maximumUploadSize = 64 << 20
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
        /// Whether HTTP listeners speak HTTP/2 too (``HTTP2Mode-swift.enum/allow``, the default), only
        /// HTTP/1.1 (``HTTP2Mode-swift.enum/refuse``) or only HTTP/2 (``HTTP2Mode-swift.enum/require``).
        public var http2 = HTTP2Mode.allow
        /// The most concurrent streams an HTTP/2 client may open (SETTINGS_MAX_CONCURRENT_STREAMS,
        /// 100 by default; 0 refuses every request): a stream past it is reset with REFUSED_STREAM.
        public var http2MaxConcurrentStreams = 100
        /// Each HTTP/2 stream's window for the client's uploads (SETTINGS_INITIAL_WINDOW_SIZE, 1 MiB
        /// by default, at most 2³¹ − 1), given back as the server reads them; 0 stalls every upload.
        /// More DATA than the window is a FLOW_CONTROL_ERROR.
        public var http2InitialWindowSize = 1 << 20
        /// The largest HTTP/2 frame payload the server takes (SETTINGS_MAX_FRAME_SIZE, 16384, the
        /// least RFC 9113 §6.5.2 allows, to 16777215): a larger frame is a FRAME_SIZE_ERROR.
        public var http2MaxFrameSize = 16_384
        /// HTTP/2's flood defences (``HTTP2Defences-swift.struct``): 1,000 resets and 10,000 frames
        /// that carry nothing at once, refilled over 30 seconds, and 30 seconds on a zero window,
        /// after which a connection ends with GOAWAY ENHANCE_YOUR_CALM; ``HTTP2Defences-swift.struct/off``
        /// turns them off.
        public var http2Defences = HTTP2Defences()
        /// The longest HTTP/1.1 request body taken, in bytes (64 MiB by default; chunk framing
        /// counts): a longer one is answered `413 Content Too Large`, naming the limit, as soon as
        /// its `Content-Length` or its chunk sizes say so, and its connection closes. A body is held
        /// whole in memory until its request is answered, so this bounds what one client's upload costs.
        /// An HTTP/2 stream's body meets the same limit: past it the stream is answered `413`, and the
        /// rest of its body is read and dropped.
        public var maximumRequestBodySize = HTTPRequestLimits.defaultMaximumBodyLength
        /// How long an HTTP/1.1 request head may take from its first byte to its blank line (60 s
        /// by default, as nginx's `client_header_timeout`): past it the client gets `408 Request
        /// Timeout` and the connection closes, so that a client sending a byte a minute (slowloris)
        /// does not hold a connection for ever. `nil` waits without end.
        public var requestHeadTimeout: Duration? = HTTPRequestLimits.defaultHeadTimeout

        /// Creates a configuration.
        public init(host: String = "127.0.0.1", port: UInt16 = 0, dataPort: UInt16 = 0, serverName: String = "MockServer",
                    maximumLineLength: Int = 1 << 20, transcriptLimit: Int = 100_000,
                    transcriptObserver: (@Sendable (Transcript.Entry) -> Void)? = nil,
                    uploadHandler: (@Sendable (Upload) -> Void)? = nil,
                    uploadSettleTime: Duration? = .milliseconds(300),
                    clock: @escaping @Sendable () -> Date = { Date() }, logger: MockServerLogger = .disabled) {
            self.host = host
            self.port = port
            self.dataPort = dataPort
            self.serverName = serverName
            self.maximumLineLength = maximumLineLength
            self.transcriptLimit = transcriptLimit
            self.transcriptObserver = transcriptObserver
            self.uploadHandler = uploadHandler
            self.uploadSettleTime = uploadSettleTime
            self.clock = clock
            self.logger = logger
        }
    }
}
