import MockServerCore
import MockServerEngine
import MockServerHTTP
import MockServerHTTP2
import MockServerHTTPScript
import MockServerInProcess
import MockServerScript

/// HTTP/2's part of a server: it claims no scheme and adds no command, but composes HTTP's
/// connections as the server's ``MockServer.HTTP2ServerSettings`` say. With `allow` or `require`, a connection
/// that starts with HTTP/2's preface (h2c with prior knowledge, or `h2` chosen through ALPN, which
/// TLS then offers first) is handed to HTTP/2's driver (an ``HTTPHandOver`` in the settings HTTP's
/// drivers are made with), which advertises the settings and answers with the same responders;
/// with `require`, an HTTP/1.1 request is refused; with `refuse`, a script with an HTTP/2 fault is.
struct HTTP2ServingProtocol: ScriptProtocol {
    let name = "HTTP/2"
    let schemes: Set<String> = []

    func compose(_ connections: ScriptConnections, script: ResponseScript?, settings: inout ScriptSettings) throws -> ScriptConnections {
        let http2 = settings[MockServer.HTTP2ServerSettings.self] ?? MockServer.HTTP2ServerSettings()
        if http2.mode == .refuse, let refusal = script?.http2FaultRefusal { throw refusal }
        guard http2.mode != .refuse, connections.outputType == HTTPReplyOutput.self else { return connections }
        let advertised = try http2.advertised
        let defences = try http2.defenceLimits
        let maximumBody = (settings[MockServer.HTTPServerSettings.self] ?? MockServer.HTTPServerSettings()).maximumRequestBodySize
        settings[HTTPHandOver.self] = HTTPHandOver(name: "HTTP/2", preface: HTTP2FrameReader.clientPreface, upgradeToken: "h2c", upgradeFields: ["HTTP2-Settings"],
                                                   isRequired: http2.mode == .require) { responder, upgraded in
            HTTP2ConnectionDriver(responder: responder, settings: advertised, defences: defences, maximumRequestBodySize: maximumBody, upgraded: upgraded)
        }
        return connections.offering(["h2"] + connections.applicationProtocols.filter { $0 != "h2" })
    }
}

extension MockServer.HTTP2ServerSettings {
    /// The settings HTTP/2's driver advertises, checked against the ranges RFC 9113 §6.5.2 allows.
    var advertised: HTTP2Settings {
        get throws(MockServerError) {
            var settings = HTTP2ConnectionDriver.defaultSettings
            guard (0...Int(UInt32.max)).contains(maxConcurrentStreams) else {
                throw .invalidHTTP2Setting("http2MaxConcurrentStreams (--http2-max-streams) is \(maxConcurrentStreams): it takes 0 to \(UInt32.max)")
            }
            guard (0...Int(Int32.max)).contains(initialWindowSize) else {
                throw .invalidHTTP2Setting("http2InitialWindowSize (--http2-window) is \(initialWindowSize): HTTP/2 allows 0 to 2147483647 (RFC 9113 §6.5.2)")
            }
            guard (16_384...16_777_215).contains(maxFrameSize) else {
                throw .invalidHTTP2Setting("http2MaxFrameSize (--http2-max-frame) is \(maxFrameSize): HTTP/2 allows 16384 to 16777215 (RFC 9113 §6.5.2)")
            }
            settings.maxConcurrentStreams = UInt32(maxConcurrentStreams)
            settings.initialWindowSize = UInt32(initialWindowSize)
            settings.maxFrameSize = UInt32(maxFrameSize)
            return settings
        }
    }

    /// The limits HTTP/2's driver defends with: ``defences``, checked.
    var defenceLimits: HTTP2DefenceLimits {
        get throws(MockServerError) {
            if let budget = defences.resetBudget, budget < 1 {
                throw .invalidHTTP2Setting("http2Defences.resetBudget (--http2-reset-budget) is \(budget): it takes 1 or more, or nil (off) to turn the defence off")
            }
            if let budget = defences.emptyFrameBudget, budget < 1 {
                throw .invalidHTTP2Setting("http2Defences.emptyFrameBudget (--http2-empty-frame-budget) is \(budget): it takes 1 or more, or nil (off) to turn the defence off")
            }
            guard defences.refillTime > .zero else { throw .invalidHTTP2Setting("http2Defences.refillTime is \(defences.refillTime): it must be more than 0") }
            if let timeout = defences.zeroWindowTimeout, timeout <= .zero {
                throw .invalidHTTP2Setting("http2Defences.zeroWindowTimeout (--http2-zero-window-timeout) is \(timeout): it must be more than 0, or nil (off) to turn the defence off")
            }
            return HTTP2DefenceLimits(resetBudget: defences.resetBudget, emptyFrameBudget: defences.emptyFrameBudget,
                                      refill: defences.refillTime, zeroWindowTimeout: defences.zeroWindowTimeout)
        }
    }
}
