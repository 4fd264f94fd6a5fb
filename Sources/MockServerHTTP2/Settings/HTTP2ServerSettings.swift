import MockServerEngine

extension MockServer {
    /// How a server's HTTP listeners speak HTTP/2: HTTP/2's part of the server's configuration, kept
    /// in ``MockServer/Configuration/settings`` under its own type (`mockserver --http2…`).
    ///
    /// ```swift
    /// var configuration = MockServer.Configuration()
    /// configuration.http2Settings.mode = .refuse
    /// configuration.http2Settings.maxConcurrentStreams = 10
    /// ```
    public struct HTTP2ServerSettings: Sendable, Hashable {
        /// Whether HTTP listeners speak HTTP/2 too (``Mode-swift.enum/allow``,
        /// the default), only HTTP/1.1 (`refuse`) or only HTTP/2 (`require`).
        public var mode: Mode
        /// The most concurrent streams a client may open (SETTINGS_MAX_CONCURRENT_STREAMS, 100 by
        /// default; 0 refuses every request): a stream past it is reset with REFUSED_STREAM.
        public var maxConcurrentStreams: Int
        /// Each stream's window for the client's uploads (SETTINGS_INITIAL_WINDOW_SIZE, 1 MiB by
        /// default, at most 2³¹ − 1), given back as the server reads them; 0 stalls every upload.
        /// More DATA than the window is a FLOW_CONTROL_ERROR.
        public var initialWindowSize: Int
        /// The largest frame payload the server takes (SETTINGS_MAX_FRAME_SIZE, 16384, the least
        /// RFC 9113 §6.5.2 allows, to 16777215): a larger frame is a FRAME_SIZE_ERROR.
        public var maxFrameSize: Int
        /// The flood defences (``Defences-swift.struct``): 1,000 resets
        /// and 10,000 frames that carry nothing at once, refilled over 30 seconds, and 30 seconds on a
        /// zero window, after which a connection ends with GOAWAY ENHANCE_YOUR_CALM.
        public var defences: Defences

        /// Settings with these values; the defaults are the documented ones.
        public init(mode: Mode = .allow, maxConcurrentStreams: Int = 100, initialWindowSize: Int = 1 << 20,
                    maxFrameSize: Int = 16_384, defences: Defences = .init()) {
            self.mode = mode
            self.maxConcurrentStreams = maxConcurrentStreams
            self.initialWindowSize = initialWindowSize
            self.maxFrameSize = maxFrameSize
            self.defences = defences
        }
    }
}
