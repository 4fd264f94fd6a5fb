import MockServerCore
import MockServerHTTP
import MockServerScript

extension ScriptConnections {
    /// HTTP/1.1's connections with each new ``HTTPConnectionDriver`` set up by `configure` (its
    /// request limits, its hand-over to HTTP/2), offering `applicationProtocols` under TLS;
    /// connections of other protocols are left as they are. The one wrapper that
    /// ``limitingHTTPRequests(_:)`` and ``servingHTTP2(_:)`` share.
    func configuringHTTPDrivers(offering applicationProtocols: [String]? = nil,
                                _ configure: @escaping @Sendable (HTTPConnectionDriver) -> Void) -> ScriptConnections {
        guard outputType == HTTPReplyOutput.self else { return self }
        let drivers = self.drivers
        return ScriptConnections(outputType: outputType, applicationProtocols: applicationProtocols ?? self.applicationProtocols,
                                 recordsOutput: recordsOutput, connectsInProcess: connectsInProcess, listeners: listeners) { context in
            let make = drivers(context)
            return {
                let driver = make()
                if let http = driver as? HTTPConnectionDriver { configure(http) }
                return driver
            }
        }
    }
}
