import MockServerEngine
import MockServerHTTP
import MockServerHTTP2

// The spellings HTTP's and HTTP/2's settings had when they were the configuration's own
// (CHANGELOG.md, Unreleased): each reads and writes its protocol's value in `settings`.
extension MockServer.Configuration {
    /// Whether the server's HTTP listeners speak HTTP/2 beside HTTP/1.1.
    @available(*, deprecated, renamed: "MockServer.HTTP2ServerSettings.Mode")
    public typealias HTTP2Mode = MockServer.HTTP2ServerSettings.Mode
    /// HTTP/2's flood defences.
    @available(*, deprecated, renamed: "MockServer.HTTP2ServerSettings.Defences")
    public typealias HTTP2Defences = MockServer.HTTP2ServerSettings.Defences


    /// Whether HTTP listeners speak HTTP/2 too.
    @available(*, deprecated, message: "use http2Settings.mode")
    public var http2: MockServer.HTTP2ServerSettings.Mode { get { http2Settings.mode } set { http2Settings.mode = newValue } }
    /// The most concurrent streams an HTTP/2 client may open.
    @available(*, deprecated, message: "use http2Settings.maxConcurrentStreams")
    public var http2MaxConcurrentStreams: Int { get { http2Settings.maxConcurrentStreams } set { http2Settings.maxConcurrentStreams = newValue } }
    /// Each HTTP/2 stream's window for the client's uploads.
    @available(*, deprecated, message: "use http2Settings.initialWindowSize")
    public var http2InitialWindowSize: Int { get { http2Settings.initialWindowSize } set { http2Settings.initialWindowSize = newValue } }
    /// The largest HTTP/2 frame payload the server takes.
    @available(*, deprecated, message: "use http2Settings.maxFrameSize")
    public var http2MaxFrameSize: Int { get { http2Settings.maxFrameSize } set { http2Settings.maxFrameSize = newValue } }
    /// HTTP/2's flood defences.
    @available(*, deprecated, message: "use http2Settings.defences")
    public var http2Defences: MockServer.HTTP2ServerSettings.Defences { get { http2Settings.defences } set { http2Settings.defences = newValue } }
    /// The longest HTTP/1.1 request body taken, in bytes.
    @available(*, deprecated, message: "use httpSettings.maximumRequestBodySize")
    public var maximumRequestBodySize: Int { get { httpSettings.maximumRequestBodySize } set { httpSettings.maximumRequestBodySize = newValue } }
    /// How long an HTTP/1.1 request head may take.
    @available(*, deprecated, message: "use httpSettings.requestHeadTimeout")
    public var requestHeadTimeout: Duration? { get { httpSettings.requestHeadTimeout } set { httpSettings.requestHeadTimeout = newValue } }
}
