import MockServerCore
import MockServerHTTP
import MockServerHTTP2
import MockServerScript

extension ScriptConnections {
    /// HTTP's connections as `mode` says: with `allow` or `require`, a connection that starts with
    /// HTTP/2's preface (h2c with prior knowledge, or `h2` chosen through ALPN, which TLS then offers
    /// first) is handed to HTTP/2's driver, which answers with the same responders; with `require`,
    /// an HTTP/1.1 request is refused. Connections of other protocols are left as they are.
    func servingHTTP2(_ mode: MockServer.Configuration.HTTP2Mode) -> ScriptConnections {
        guard mode != .refuse, outputType == HTTPReplyOutput.self else { return self }
        let handOver = HTTPHandOver(name: "HTTP/2", preface: HTTP2FrameReader.clientPreface, upgradeToken: "h2c", upgradeFields: ["HTTP2-Settings"], isRequired: mode == .require) { responder, upgraded in
            HTTP2ConnectionDriver(responder: responder, upgraded: upgraded)
        }
        let drivers = self.drivers
        var offered = applicationProtocols
        offered.removeAll { $0 == "h2" }
        offered.insert("h2", at: 0)
        return ScriptConnections(outputType: outputType, applicationProtocols: offered, recordsOutput: recordsOutput,
                                 connectsInProcess: connectsInProcess, listeners: listeners) { context in
            let make = drivers(context)
            return {
                let driver = make()
                (driver as? HTTPConnectionDriver)?.handOver = handOver
                return driver
            }
        }
    }
}
