import MockServerCore
import MockServerHTTP
import MockServerScript

extension ScriptConnections {
    /// HTTP/1.1's connections with the configuration's request limits (``MockServer/Configuration/maximumRequestBodySize``,
    /// ``MockServer/Configuration/requestHeadTimeout``); connections of other protocols are left as they are.
    func limitingHTTPRequests(_ configuration: MockServer.Configuration) -> ScriptConnections {
        guard outputType == HTTPReplyOutput.self else { return self }
        let limits = HTTPRequestLimits(maximumBodyLength: configuration.maximumRequestBodySize, headTimeout: configuration.requestHeadTimeout)
        let drivers = self.drivers
        return ScriptConnections(outputType: outputType, applicationProtocols: applicationProtocols, recordsOutput: recordsOutput,
                                 connectsInProcess: connectsInProcess, listeners: listeners) { context in
            let make = drivers(context)
            return {
                let driver = make()
                (driver as? HTTPConnectionDriver)?.requestLimits = limits
                return driver
            }
        }
    }
}
