import MockServerEngine

extension MockServer.Configuration {
    /// HTTP/2's settings in ``settings``: the value stored under ``MockServer/HTTP2ServerSettings``,
    /// or the defaults when there is none; a change through it is stored.
    ///
    /// ```swift
    /// var configuration = MockServer.Configuration()
    /// configuration.http2Settings.maxConcurrentStreams = 1
    /// ```
    public var http2Settings: MockServer.HTTP2ServerSettings {
        get { settings[MockServer.HTTP2ServerSettings.self, default: MockServer.HTTP2ServerSettings()] }
        set { settings[MockServer.HTTP2ServerSettings.self] = newValue }
    }
}
