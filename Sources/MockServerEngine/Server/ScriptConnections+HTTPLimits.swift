import MockServerCore
import MockServerHTTP
import MockServerScript

extension ScriptConnections {
    /// HTTP/1.1's connections with the configuration's request limits (``MockServer/Configuration/maximumRequestBodySize``,
    /// ``MockServer/Configuration/requestHeadTimeout``); connections of other protocols are left as they are.
    func limitingHTTPRequests(_ configuration: MockServer.Configuration) -> ScriptConnections {
        let limits = HTTPRequestLimits(maximumBodyLength: configuration.maximumRequestBodySize, headTimeout: configuration.requestHeadTimeout)
        return configuringHTTPDrivers { $0.requestLimits = limits }
    }
}
