import Foundation
import MockServerCore
import MockServerHTTP
import MockServerScript

/// Turns a parsed endpoints file into an ``EndpointScript``, with the response-file decoder's
/// checks and errors.
struct EndpointScriptDecoder {
    let base: ResponseScriptDecoder
    /// The loaded schemas, which gRPC endpoints' JSON messages and patterns are read by.
    var schema: GRPCSchema?

    private static let methods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

    func decode(_ json: [UInt8], file: String?) throws(ResponseFileError) -> EndpointScript {
        let root: JSONNode
        do {
            root = try JSONReader.parse(json)
        } catch {
            throw base.error(.syntax(message: error.message), at: error.location)
        }
        let top = try base.members(of: root, path: "the file", known: ["endpoints", "conditions", "comment"])
        let conditions = try top["conditions"].map { value throws(ResponseFileError) in try base.conditions(value) }
        guard let list = top["endpoints"] else { throw base.error(.missingKey(path: "", key: "endpoints"), at: root.location) }
        guard case .array(let values) = list.kind else {
            throw base.error(.wrongType(path: "endpoints", expected: "an array of endpoints", found: list.typeName), at: list.location)
        }
        var endpoints: [EndpointScript.Endpoint] = []
        for (index, value) in values.enumerated() {
            endpoints.append(try endpoint(value, path: "endpoints[\(index)]"))
        }
        return EndpointScript(endpoints: endpoints, conditions: conditions, file: file)
    }

    private func endpoint(_ value: JSONNode, path: String) throws(ResponseFileError) -> EndpointScript.Endpoint {
        let fields = try base.members(of: value, path: path, known: ["api", "request", "response", "responses", "upgrade", "cache", "comment"])
        guard let apiValue = fields["api"] else { throw base.error(.missingKey(path: path, key: "api"), at: value.location) }
        let api = try base.string(apiValue, path: "\(path).api")
        let parts = api.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2, Self.methods.contains(parts[0].uppercased()), parts[1].hasPrefix("/") else {
            throw base.error(.invalidValue(path: "\(path).api", reason: "an api is a method and a path, such as \"get /config/:version\", not \"\(api)\""),
                             at: apiValue.location)
        }
        var headers = HTTPHeaderFields()
        var body: String?
        var grpcRequest: GRPCRequestPattern?
        if let request = fields["request"] {
            let requestFields = try base.members(of: request, path: "\(path).request", known: ["headers", "body", "grpc"])
            if let grpcValue = requestFields["grpc"] {
                if let other = requestFields["body"] {
                    throw base.error(.invalidValue(path: "\(path).request.body", reason: "a request matched by \"grpc\" has no \"body\""), at: other.location)
                }
                grpcRequest = try grpcRequestPattern(grpcValue, api: String(parts[1]), path: "\(path).request.grpc")
            }
            if let headerValue = requestFields["headers"] {
                for member in try base.orderedMembers(of: headerValue, path: "\(path).request.headers") {
                    headers.add(name: member.key, value: try base.string(member.value, path: "\(path).request.headers.\(member.key)"))
                }
            }
            body = try requestFields["body"].map { value throws(ResponseFileError) in try base.string(value, path: "\(path).request.body") }
        }
        var responses: [EndpointScript.Response] = []
        var upgrade: PatternResponder?
        switch (fields["response"], fields["responses"]) {
        case (nil, nil) where fields["upgrade"] != nil:
            upgrade = try self.upgrade(fields["upgrade"]!, path: "\(path).upgrade")
        case (let answer?, _) where fields["upgrade"] != nil, (_, let answer?) where fields["upgrade"] != nil:
            throw base.error(.invalidValue(path: path, reason: "an endpoint that upgrades has no \"response\" or \"responses\": its script answers"),
                             at: answer.location)
        case (let single?, nil):
            responses = [try response(single, api: String(parts[1]), path: "\(path).response")]
        case (nil, let list?):
            guard case .array(let items) = list.kind, !items.isEmpty else {
                throw base.error(.wrongType(path: "\(path).responses", expected: "a non-empty array of responses", found: list.typeName), at: list.location)
            }
            for (index, item) in items.enumerated() {
                let answer = try response(item, api: String(parts[1]), path: "\(path).responses[\(index)]")
                if case .grpc(let grpc) = answer.body, grpc.constant == nil {
                    throw base.error(.invalidValue(path: "\(path).responses[\(index)].grpc",
                                                   reason: "a gRPC answer with \"each\", an HTTP/2 fault after its messages or ${…} values is an endpoint's one \"response\", not one of \"responses\""),
                                     at: item.location)
                }
                responses.append(answer)
            }
        case (nil, nil):
            throw base.error(.missingKey(path: path, key: "response"), at: value.location)
        case (_?, let list?):
            throw base.error(.invalidValue(path: path, reason: "give \"response\" or \"responses\", not both"), at: list.location)
        }
        // A call answered as it streams (`each` rules, or a fault after the messages) is chosen by
        // its path and metadata before any message arrives: a message pattern cannot choose it.
        if grpcRequest != nil, let request = fields["request"],
           let streamed = responses.lazy.compactMap({ if case .grpc(let answer) = $0.body, answer.each != nil || answer.fault != nil { answer } else { nil } }).first {
            let reason = streamed.each != nil
                ? "an endpoint with \"each\" is chosen by its path and metadata before any message arrives: match messages in its rules' \"request\""
                : "an answer that breaks off with an HTTP/2 fault goes as it streams, chosen by its path and metadata before any message arrives: match the message with an \"each\" rule's \"request\" (a rule may end with the fault too)"
            throw base.error(.invalidValue(path: "\(path).request.grpc", reason: reason), at: request.location)
        }
        var cache: [(name: String, value: EndpointTemplate)] = []
        if let cacheValue = fields["cache"] {
            for member in try base.orderedMembers(of: cacheValue, path: "\(path).cache") {
                cache.append((member.key, try template(member.value, path: "\(path).cache.\(member.key)")))
            }
        }
        return EndpointScript.Endpoint(method: parts[0].uppercased(), path: String(parts[1]), requestHeaders: headers, requestBody: body,
                                       grpcRequest: grpcRequest, responses: responses, upgrade: upgrade, cache: cache)
    }

    /// The responder of the script an endpoint's connection switches to: a response script written
    /// in place, whose `scheme` names a protocol that HTTP upgrades to
    /// (``ScriptProtocol/upgradeToken``), whose sets all name responses it has; connections start
    /// on `default`, or else the first set.
    private func upgrade(_ value: JSONNode, path: String) throws(ResponseFileError) -> PatternResponder {
        guard case .object(let members) = value.kind else {
            throw base.error(.wrongType(path: path, expected: "a script object, such as {\"scheme\": \"websocket\", \"responses\": {…}}", found: value.typeName),
                             at: value.location)
        }
        let upgradable = base.vocabulary.protocols.filter { $0.upgradeToken != nil }
        let schemes = upgradable.flatMap { $0.schemes.sorted() }
        guard let schemeMember = members.first(where: { $0.key == "scheme" }) else {
            throw base.error(.missingKey(path: path, key: "scheme"), at: value.location)
        }
        guard case .string(let scheme) = schemeMember.value.kind, upgradable.contains(where: { $0.schemes.contains(scheme.lowercased()) }) else {
            let known = schemes.isEmpty ? "no protocol that HTTP switches to is known where this file is read"
                : "scheme \(schemes.map { "\"\($0)\"" }.joined(separator: ", "))"
            throw base.error(.invalidValue(path: "\(path).scheme", reason: "an endpoint upgrades to a protocol HTTP switches to: \(known)"),
                             at: schemeMember.value.location)
        }
        if let conditions = members.first(where: { $0.key == "conditions" }) {
            throw base.error(.invalidValue(path: "\(path).conditions", reason: "network conditions go at the top of the endpoints file"), at: conditions.keyLocation)
        }
        let script = try ResponseScriptDecoder(file: base.file, vocabulary: base.vocabulary).decode(root: value)
        // Every set must name responses the script has, as `--check` asks of a whole script.
        try script.validate()
        return try PatternResponder(script: script, set: script.startingSet)
    }

    private func response(_ value: JSONNode, api: String, path: String) throws(ResponseFileError) -> EndpointScript.Response {
        let fields = try base.members(of: value, path: path, known: ["status", "headers", "body", "json", "delay", "events", "chunks", "end", "conditions",
                                                                      "trailers", "grpc"] + HTTPStreamFault.keys)
        var status = 200
        if let statusValue = fields["status"] {
            guard case .number(let number) = statusValue.kind, number.rounded() == number, (100...599).contains(number) else {
                throw base.error(.invalidValue(path: "\(path).status", reason: "a status is a number from 100 to 599"), at: statusValue.location)
            }
            status = Int(number)
        }
        var headers: [(name: String, value: EndpointTemplate)] = []
        if let headerValue = fields["headers"] {
            for member in try base.orderedMembers(of: headerValue, path: "\(path).headers") {
                headers.append((member.key, try template(member.value, path: "\(path).headers.\(member.key)")))
            }
        }
        if let streamed = fields["events"] ?? fields["chunks"], fields["body"] != nil || fields["json"] != nil {
            throw base.error(.invalidValue(path: path, reason: "a streamed response (\"events\" or \"chunks\") has no \"body\" or \"json\""), at: streamed.location)
        }
        let body: EndpointScript.Body
        switch (fields["body"], fields["json"]) {
        case _ where fields["grpc"] != nil: body = try grpc(fields, api: api, path: path)
        case (let value?, nil):
            if case .object = value.kind {
                // {"base64": …} or {"hex": …}: bytes as they are (a recorded gzip body, say), no values put in.
                body = .bytes(try base.bytes(value, path: "\(path).body"))
            } else {
                body = .text(try template(value, path: "\(path).body"))
            }
        case (nil, let json?): body = .json(try self.json(json, path: "\(path).json"))
        case (nil, nil): body = try stream(fields, path: path) ?? .none
        case (_?, let json?):
            throw base.error(.invalidValue(path: path, reason: "give \"body\" or \"json\", not both"), at: json.location)
        }
        let delay = try fields["delay"].map { value throws(ResponseFileError) -> Duration in
            guard case .number(let seconds) = value.kind else {
                throw base.error(.wrongType(path: "\(path).delay", expected: "a number of seconds", found: value.typeName), at: value.location)
            }
            return try base.pause(seconds, path: "\(path).delay", at: value.location)
        }
        let conditions = try fields["conditions"].map { value throws(ResponseFileError) in try base.conditions(value, path: "\(path).conditions") }
        var answer = EndpointScript.Response(status: status, headers: headers, body: body, delay: delay, conditions: conditions,
                                             trailers: try trailers(fields["trailers"], path: "\(path).trailers"))
        answer.fault = try http2Fault(fields, path: path)
        return answer
    }

    /// A response's `"trailers"`: names and values (with `${…}` values), in order.
    private func trailers(_ value: JSONNode?, path: String) throws(ResponseFileError) -> [(name: String, value: EndpointTemplate)] {
        guard let value else { return [] }
        var trailers: [(name: String, value: EndpointTemplate)] = []
        for member in try base.orderedMembers(of: value, path: path) {
            guard !member.key.isEmpty, member.key.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != 0x3A }) else {
                throw base.error(.invalidValue(path: path, reason: "\"\(member.key)\" is not a field name"), at: member.keyLocation)
            }
            trailers.append((member.key, try template(member.value, path: "\(path).\(member.key)")))
        }
        return trailers
    }

    /// `"reset": "CODE"` or `"goaway": "CODE"` (an RFC 9113 error name), or `"stall"`, `"badHPACK"`
    /// or `"illegalFrame"` with `true`; `nil` when there is none.
    func http2Fault(_ fields: [String: JSONNode], path: String) throws(ResponseFileError) -> (HTTPStreamFault, refusedOnHTTP11: ResponseFileError)? {
        let given = HTTPStreamFault.keys.filter { fields[$0] != nil }
        guard let key = given.first, let value = fields[key] else { return nil }
        if given.count > 1, let other = fields[given[1]] {
            throw base.error(.invalidValue(path: path, reason: "give one HTTP/2 fault (\(HTTPStreamFault.keys.joined(separator: ", "))), not \(given.count)"), at: other.location)
        }
        let fault = try HTTPStreamFault.decode(key: key, value, path: "\(path).\(key)", decoder: base)
        return (fault, HTTPStreamFault.refusal(at: value, path: "\(path).\(key)", decoder: base))
    }

    /// A streamed body: `"events"` or `"chunks"`, and how it `"end"`s; `nil` when there is neither.
    func stream(_ fields: [String: JSONNode], path: String) throws(ResponseFileError) -> EndpointScript.Body? {
        let end = try fields["end"].map { value throws(ResponseFileError) -> HTTPMockResponse.StreamEnd in
            guard case .string(let text) = value.kind, let end = HTTPMockResponse.StreamEnd(rawValue: text) else {
                throw base.error(.invalidValue(path: "\(path).end", reason: "a stream ends \(HTTPMockResponse.StreamEnd.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))"),
                                 at: value.location)
            }
            return end
        } ?? .complete
        switch (fields["events"], fields["chunks"]) {
        case (nil, nil):
            if let value = fields["end"] { throw base.error(.invalidValue(path: "\(path).end", reason: "\"end\" goes with \"events\" or \"chunks\""), at: value.location) }
            return nil
        case (_?, let chunks?):
            throw base.error(.invalidValue(path: path, reason: "give \"events\" or \"chunks\", not both"), at: chunks.location)
        case (let events?, nil):
            return .events(try list(events, path: "\(path).events").enumerated().map { index, value throws(ResponseFileError) in
                try event(value, path: "\(path).events[\(index)]")
            }, end: end)
        case (nil, let chunks?):
            return .chunks(try list(chunks, path: "\(path).chunks").enumerated().map { index, value throws(ResponseFileError) in
                let itemPath = "\(path).chunks[\(index)]"
                let fields = try base.members(of: value, path: itemPath, known: ["data", "delay"])
                guard let data = fields["data"] else { throw base.error(.missingKey(path: itemPath, key: "data"), at: value.location) }
                return HTTPMockResponse.StreamPiece(try base.bytes(data, path: "\(itemPath).data"), delay: try delay(fields["delay"], path: "\(itemPath).delay"))
            }, end: end)
        }
    }

    private func list(_ value: JSONNode, path: String) throws(ResponseFileError) -> [JSONNode] {
        guard case .array(let items) = value.kind, !items.isEmpty else {
            throw base.error(.wrongType(path: path, expected: "a non-empty array", found: value.typeName), at: value.location)
        }
        return items
    }

    private func event(_ value: JSONNode, path: String) throws(ResponseFileError) -> HTTPMockResponse.ServerSentEvent {
        let fields = try base.members(of: value, path: path, known: ["id", "event", "data", "retry", "comment", "delay"])
        func text(_ key: String) throws(ResponseFileError) -> String? {
            try fields[key].map { value throws(ResponseFileError) in try base.string(value, path: "\(path).\(key)") }
        }
        var event = HTTPMockResponse.ServerSentEvent()
        event.id = try text("id")
        event.event = try text("event")
        event.data = try text("data")
        event.comment = try text("comment")
        event.delay = try delay(fields["delay"], path: "\(path).delay")
        for key in ["id", "event"] where (key == "id" ? event.id : event.event)?.contains(where: { $0 == "\n" || $0 == "\r" }) == true {
            throw base.error(.invalidValue(path: "\(path).\(key)", reason: "an event's \(key) is one line"), at: fields[key]!.location)
        }
        if let retry = fields["retry"] {
            guard case .number(let number) = retry.kind, number >= 0, number.rounded() == number else {
                throw base.error(.invalidValue(path: "\(path).retry", reason: "retry is a whole number of milliseconds"), at: retry.location)
            }
            event.retry = Int(number)
        }
        guard event.data != nil || event.comment != nil || event.retry != nil || event.id != nil else {
            throw base.error(.invalidValue(path: path, reason: "an event has at least one of data, comment, retry or id"), at: value.location)
        }
        return event
    }

    func delay(_ value: JSONNode?, path: String) throws(ResponseFileError) -> Duration? {
        try value.map { value throws(ResponseFileError) -> Duration in
            guard case .number(let seconds) = value.kind else {
                throw base.error(.wrongType(path: path, expected: "a number of seconds", found: value.typeName), at: value.location)
            }
            return try base.pause(seconds, path: path, at: value.location)
        }
    }

    func template(_ value: JSONNode, path: String) throws(ResponseFileError) -> EndpointTemplate {
        let text = try base.string(value, path: path)
        do {
            return try EndpointTemplate(text)
        } catch {
            throw base.error(.invalidValue(path: path, reason: error.reason), at: value.location)
        }
    }

    func json(_ value: JSONNode, path: String) throws(ResponseFileError) -> EndpointJSON {
        switch value.kind {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .number(let number): return .number(number)
        case .string: return .string(try template(value, path: path))
        case .array(let items):
            var result: [EndpointJSON] = []
            for (index, item) in items.enumerated() { result.append(try json(item, path: "\(path)[\(index)]")) }
            return .array(result)
        case .object(let members):
            var result: [(String, EndpointJSON)] = []
            for member in members { result.append((member.key, try json(member.value, path: "\(path).\(member.key)"))) }
            return .object(result)
        }
    }
}
