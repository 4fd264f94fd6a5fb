import MockServerCore
import MockServerHTTP
import MockServerHTTP2
import MockServerScript

extension ScriptConnections {
    /// HTTP's connections as `configuration.http2` says: with `allow` or `require`, a connection
    /// that starts with HTTP/2's preface (h2c with prior knowledge, or `h2` chosen through ALPN,
    /// which TLS then offers first) is handed to HTTP/2's driver, which advertises the
    /// configuration's settings and answers with the same responders; with `require`, an HTTP/1.1
    /// request is refused. Connections of other protocols are left as they are.
    func servingHTTP2(_ configuration: MockServer.Configuration) throws(MockServerError) -> ScriptConnections {
        let mode = configuration.http2
        guard mode != .refuse, outputType == HTTPReplyOutput.self else { return self }
        let settings = try configuration.http2Settings
        let defences = try configuration.http2DefenceLimits
        let maximumBody = configuration.maximumRequestBodySize
        let handOver = HTTPHandOver(name: "HTTP/2", preface: HTTP2FrameReader.clientPreface, upgradeToken: "h2c", upgradeFields: ["HTTP2-Settings"], isRequired: mode == .require) { responder, upgraded in
            HTTP2ConnectionDriver(responder: responder, settings: settings, defences: defences, maximumRequestBodySize: maximumBody, upgraded: upgraded)
        }
        var offered = applicationProtocols
        offered.removeAll { $0 == "h2" }
        offered.insert("h2", at: 0)
        return configuringHTTPDrivers(offering: offered) { $0.handOver = handOver }
    }
}

extension MockServer.Configuration {
    /// The settings HTTP/2's driver advertises: the configuration's limits, checked against the
    /// ranges RFC 9113 §6.5.2 allows.
    var http2Settings: HTTP2Settings {
        get throws(MockServerError) {
            var settings = HTTP2ConnectionDriver.defaultSettings
            guard (0...Int(UInt32.max)).contains(http2MaxConcurrentStreams) else {
                throw .invalidHTTP2Setting("http2MaxConcurrentStreams (--http2-max-streams) is \(http2MaxConcurrentStreams): it takes 0 to \(UInt32.max)")
            }
            guard (0...Int(Int32.max)).contains(http2InitialWindowSize) else {
                throw .invalidHTTP2Setting("http2InitialWindowSize (--http2-window) is \(http2InitialWindowSize): HTTP/2 allows 0 to 2147483647 (RFC 9113 §6.5.2)")
            }
            guard (16_384...16_777_215).contains(http2MaxFrameSize) else {
                throw .invalidHTTP2Setting("http2MaxFrameSize (--http2-max-frame) is \(http2MaxFrameSize): HTTP/2 allows 16384 to 16777215 (RFC 9113 §6.5.2)")
            }
            settings.maxConcurrentStreams = UInt32(http2MaxConcurrentStreams)
            settings.initialWindowSize = UInt32(http2InitialWindowSize)
            settings.maxFrameSize = UInt32(http2MaxFrameSize)
            return settings
        }
    }
}

extension MockServer.Configuration {
    /// The limits HTTP/2's driver defends with: ``http2Defences``, checked.
    var http2DefenceLimits: HTTP2DefenceLimits {
        get throws(MockServerError) {
            let defences = http2Defences
            if let budget = defences.resetBudget, budget < 1 {
                throw .invalidHTTP2Setting("http2Defences.resetBudget (--http2-reset-budget) is \(budget): it takes 1 or more, or nil (off) to turn the defence off")
            }
            if let budget = defences.emptyFrameBudget, budget < 1 {
                throw .invalidHTTP2Setting("http2Defences.emptyFrameBudget (--http2-empty-frame-budget) is \(budget): it takes 1 or more, or nil (off) to turn the defence off")
            }
            guard defences.refillTime > .zero else {
                throw .invalidHTTP2Setting("http2Defences.refillTime is \(defences.refillTime): it must be more than 0")
            }
            if let timeout = defences.zeroWindowTimeout, timeout <= .zero {
                throw .invalidHTTP2Setting("http2Defences.zeroWindowTimeout (--http2-zero-window-timeout) is \(timeout): it must be more than 0, or nil (off) to turn the defence off")
            }
            return HTTP2DefenceLimits(resetBudget: defences.resetBudget, emptyFrameBudget: defences.emptyFrameBudget,
                                      refill: defences.refillTime, zeroWindowTimeout: defences.zeroWindowTimeout)
        }
    }
}
