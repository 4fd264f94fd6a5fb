import MockServerEngine

extension MockServer.Configuration {
    /// HTTP's settings in ``settings``: the value stored under ``MockServer/HTTPServerSettings``, or
    /// the defaults when there is none; a change through it is stored.
    ///
    /// ```swift
    /// var configuration = MockServer.Configuration()
    /// configuration.httpSettings.maximumRequestBodySize = 1 << 20
    /// ```
    public var httpSettings: MockServer.HTTPServerSettings {
        get { settings[MockServer.HTTPServerSettings.self, default: MockServer.HTTPServerSettings()] }
        set { settings[MockServer.HTTPServerSettings.self] = newValue }
    }
}
