import MockServerCore
import MockServerEngine
import MockServerHTTP
import MockServerScript

/// HTTP's part of the script language: scripts with `scheme` `http` or `https` frame whole
/// requests, and may send `{"response": {…}}`, an HTTP/2 fault in its place (`{"reset": "CODE"}`,
/// `{"goaway": "CODE"}`, `{"stall": true}`, `{"badHPACK": true}`, `{"illegalFrame": true}`) and, in
/// a `"head": true` response, `«continue»`.
package struct HTTPScriptProtocol: ScriptResponseKeys {
    package let name = "HTTP"
    /// WebDAV is HTTP too: its schemes get HTTP's commands and framing.
    package let schemes: Set<String> = ["http", "https"]
    package let framing = Framing.requests
    /// Whole requests; lines or raw reads, answered by the script's patterns, when a script asks.
    package let framings: Set<Framing> = [.requests, .lines, .raw]
    package let tokens = ["«continue»"]
    package let keys = ["response"] + HTTPStreamFault.keys
    /// `"head": true`: the response answers request heads (``HTTPHeadAnswer``).
    package let responseKeys = ["head"]

    /// Creates HTTP's vocabulary.
    package init() {}

    /// The request being answered (``ScriptHTTPResponder`` puts it in the reply's
    /// ``MockServerScript/SubstitutionContext/protocolValues``): `$method`, `$path` (the target as
    /// sent), `$body` (de-chunked) and `${header:Name}` (the first header `Name`, any case). Each
    /// is empty when there is no request, as in a script of another protocol.
    package var variables: [ScriptProtocolVariable] {
        [ScriptProtocolVariable("method") { $0.protocolValues[HTTPMockRequest.self]?.method ?? "" },
         ScriptProtocolVariable("path") { $0.protocolValues[HTTPMockRequest.self]?.target ?? "" },
         ScriptProtocolVariable("body", bytes: { $0.protocolValues[HTTPMockRequest.self]?.body ?? [] }),
         ScriptProtocolVariable("header", argument: { name, context in context.protocolValues[HTTPMockRequest.self]?.header(name) ?? "" })]
    }

    /// Whole requests answered by the script through HTTP's connection driver (ALPN `http/1.1`);
    /// raw reads or lines, answered by the script's patterns, when the script asks for them.
    package func connections(framing: Framing) -> ScriptConnections {
        guard framing == .requests else { return framing == .raw ? .raw : .lines }
        return Self.connections { context in ScriptHTTPResponder(server: context.server, base: context.base) }
    }

    /// HTTP's connections, whose requests go to the responder `responder` makes once per start.
    /// Each connection's driver gets the server's request limits (``MockServer.HTTPServerSettings``) and the
    /// hand-over another protocol put in the server's settings (``HTTPHandOver``: HTTP/2's), as
    /// the connection context has them; clients in the same process get a responder of their own.
    package static func connections(responder: @escaping @Sendable (ScriptConnectionContext) -> any HTTPMockResponder) -> ScriptConnections {
        ScriptConnections(outputType: HTTPReplyOutput.self, applicationProtocols: ["http/1.1"], localResponder: { responder($0) }) { context in
            let responder = responder(context)
            // One closure for every connection: made per connection, its context (the responder)
            // was an allocation each connection kept for as long as it lived.
            let current: @Sendable () -> any HTTPMockResponder = { responder }
            let limits = context.settings[MockServer.HTTPServerSettings.self]?.requestLimits
            let handOver = context.settings[HTTPHandOver.self]
            return {
                let driver = HTTPConnectionDriver(responder: current)
                if let limits { driver.requestLimits = limits }
                driver.handOver = handOver
                return driver
            }
        }
    }

    /// A server that serves HTTP gives its connections its request limits: the configuration's
    /// (``MockServer.HTTPServerSettings``), or the documented defaults.
    package func compose(_ connections: ScriptConnections, script: ResponseScript?, settings: inout ScriptSettings) throws -> ScriptConnections {
        if connections.outputType == HTTPReplyOutput.self, settings[MockServer.HTTPServerSettings.self] == nil { settings[MockServer.HTTPServerSettings.self] = MockServer.HTTPServerSettings() }
        return connections
    }

    /// `https` for `http` under implicit TLS.
    package func urlScheme(for scheme: String, implicitTLS: Bool) -> String {
        implicitTLS && scheme == "http" ? "https" : scheme
    }

    package func command(token: String, in decoding: ScriptDecoding) throws(ResponseFileError) -> ScriptCommand {
        guard decoding.traits[HTTPHeadAnswer.self] != nil else {
            throw decoding.error(.invalidValue(path: decoding.path,
                                               reason: "«continue» lets a waiting client send its body, so it belongs in a response with \"head\": true"))
        }
        return .continueRequest
    }

    package func responseTraits(_ members: [JSONNode.Member], pattern: InputPattern, at patternLocation: JSONNode.Location,
                                in decoding: ScriptDecoding) throws(ResponseFileError) -> [any Sendable] {
        var traits: [any Sendable] = []
        for member in members {
            if let head = try HTTPHeadAnswer.decode(member.value, pattern: pattern, at: patternLocation, in: decoding) { traits.append(head) }
        }
        return traits
    }

    package func command(key: String, object: ScriptDecoding.CommandObject, in decoding: ScriptDecoding) throws(ResponseFileError) -> ScriptCommand {
        if HTTPStreamFault.keys.contains(key) {
            let path = "\(decoding.path).\(key)"
            let value = object.command.value
            let fault = try HTTPStreamFault.decode(key: key, value, path: path, decoder: decoding.decoder)
            let refusal = HTTPScriptCommand.Refusal(error: HTTPStreamFault.refusal(at: value, path: path, decoder: decoding.decoder))
            return .command(HTTPScriptCommand.streamFault(fault, refusedOnHTTP11: refusal))
        }
        return .httpResponse(try response(object.command.value, path: "\(decoding.path).\(key)", in: decoding))
    }

    /// `{"status": "200 OK", "headers": {"Name": "value", …}, "body": "text" | {"hex"/"base64": …} | "«data»"}`,
    /// or in place of the body `"events"` (server-sent events) or `"chunks"` (timed pieces) and
    /// their `"end"`, written as in an endpoints file.
    private func response(_ value: JSONNode, path: String, in decoding: ScriptDecoding) throws(ResponseFileError) -> HTTPResponseTemplate {
        var status: ResponseTemplate = "200 OK"
        var headers: [HTTPResponseTemplate.Header] = []
        var body: HTTPResponseTemplate.Body = .bytes([])
        var streamFields: [String: JSONNode] = [:]
        var bodyValue: JSONNode?
        for member in try decoding.members(of: value, path: path, known: ["status", "headers", "body", "events", "chunks", "end"]) {
            switch member.key {
            case "status":
                status = ResponseTemplate(try decoding.string(member.value, path: "\(path).status"))
            case "headers":
                for header in try decoding.members(of: member.value, path: "\(path).headers") {
                    let headerValue = try decoding.string(header.value, path: "\(path).headers.\(header.key)")
                    guard !header.key.isEmpty, !header.key.contains(where: { $0 == ":" || $0.isWhitespace }) else {
                        throw decoding.error(.invalidValue(path: "\(path).headers", reason: "\"\(header.key)\" is not a header name"), at: header.keyLocation)
                    }
                    headers.append(.init(name: header.key, value: ResponseTemplate(headerValue)))
                }
            case "events", "chunks", "end":
                streamFields[member.key] = member.value
            default:
                bodyValue = member.value
                if case .string(let text) = member.value.kind {
                    body = text == "«data»" ? .data : .text(ResponseTemplate(text))
                } else {
                    body = .bytes(try decoding.bytes(member.value, path: "\(path).body"))
                }
            }
        }
        guard let stream = try decoding.stream(streamFields, path: path) else {
            return HTTPResponseTemplate(status: status, headers: headers, body: body)
        }
        if let bodyValue {
            throw decoding.error(.invalidValue(path: path, reason: "a streamed response (\"events\" or \"chunks\") has no \"body\""), at: bodyValue.location)
        }
        switch stream {
        case .events(let events, let end):
            return HTTPResponseTemplate(status: status, headers: headers, body: .bytes([]), streamed: HTTPStreamedBody(events: events, end: end))
        case .chunks(let chunks, let end):
            return HTTPResponseTemplate(status: status, headers: headers, body: .bytes([]),
                                        streamed: HTTPStreamedBody(chunks, end: end))
        default:
            return HTTPResponseTemplate(status: status, headers: headers, body: body)
        }
    }
}
