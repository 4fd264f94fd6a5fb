import Foundation
import MockServerCore
import MockServerHTTP
import MockServerScript

/// The `"grpc"` parts of an endpoints file: an answer's messages (bytes, or JSON read by the loaded
/// schema), status, message, details and `each` rules, and a request's `"grpc": {"json": …}`.
extension EndpointScriptDecoder {
    /// A response's `"grpc"` answer for the call `api` names: `"messages"`, `"status"` (0 to 16),
    /// `"message"`, `"details"` and `"each"`, or instead of the status an HTTP/2 fault after the
    /// messages (`"reset"`, `"goaway"`, `"stall"`, `"badHPACK"`, `"illegalFrame"`). It is the whole answer: the response has no status,
    /// body or stream of its own; its `"headers"` are the response's metadata and its `"trailers"`
    /// go with the status.
    func grpc(_ fields: [String: JSONNode], api: String, path: String) throws(ResponseFileError) -> EndpointScript.Body {
        for key in ["status", "body", "json", "events", "chunks", "end"] {
            if let other = fields[key] {
                throw base.error(.invalidValue(path: "\(path).\(key)", reason: "a \"grpc\" answer has no \"\(key)\": it sets the status and the messages"),
                                 at: other.location)
            }
        }
        let value = fields["grpc"]!
        let grpcPath = "\(path).grpc"
        let coder = schema?.coder(path: api)
        let members = try base.members(of: value, path: grpcPath, known: ["messages", "status", "message", "details", "each"] + HTTPStreamFault.keys)
        var answer = GRPCEndpointAnswer(coder: coder, schema: schema)
        answer.fault = try http2Fault(members, path: grpcPath)?.0
        if answer.fault != nil, let status = members["status"] ?? members["message"] ?? members["details"] {
            throw base.error(.invalidValue(path: grpcPath, reason: "a \"grpc\" answer ends the call with an HTTP/2 fault or a status, not both"), at: status.location)
        }
        answer.end = try status(members, path: grpcPath, api: api) ?? GRPCEndpointStatus()
        answer.messages = try messages(members["messages"], api: api, path: "\(grpcPath).messages")
        if let rules = members["each"] {
            guard case .array(let items) = rules.kind else {
                throw base.error(.wrongType(path: "\(grpcPath).each", expected: "an array of rules", found: rules.typeName), at: rules.location)
            }
            var each: [GRPCEndpointRule] = []
            for (index, item) in items.enumerated() { each.append(try rule(item, api: api, path: "\(grpcPath).each[\(index)]")) }
            answer.each = each
        }
        return .grpc(answer)
    }

    /// A request's `"grpc": {"json": {…}}` for the call `api` names.
    func grpcRequestPattern(_ value: JSONNode, api: String, path: String) throws(ResponseFileError) -> GRPCRequestPattern {
        let members = try base.members(of: value, path: path, known: ["json"])
        guard let json = members["json"] else { throw base.error(.missingKey(path: path, key: "json"), at: value.location) }
        guard case .object = json.kind else {
            throw base.error(.wrongType(path: "\(path).json", expected: "an object of the request message's fields", found: json.typeName), at: json.location)
        }
        let coder = try requireCoder(api: api, path: "\(path).json", at: json.location)
        do {
            // Read by the request's type now, not at each call.
            return try GRPCRequestPattern(json: json, coder: coder)
        } catch {
            throw base.error(.invalidValue(path: "\(path).json", reason: "not a \(coder.method.inputType.dropFirst()): \(error)"), at: json.location)
        }
    }

    /// One `each` rule: `"request": {"json": …}`, `"messages"`, and `"status"`, `"message"`,
    /// `"details"` when it ends the call, or an HTTP/2 fault (`"reset"`, `"goaway"`, `"stall"`,
    /// `"badHPACK"`, `"illegalFrame"`) that ends it mid-stream after the messages.
    private func rule(_ value: JSONNode, api: String, path: String) throws(ResponseFileError) -> GRPCEndpointRule {
        let members = try base.members(of: value, path: path, known: ["request", "messages", "status", "message", "details"] + HTTPStreamFault.keys)
        var rule = GRPCEndpointRule()
        rule.fault = try http2Fault(members, path: path)?.0
        if rule.fault != nil, let status = members["status"] ?? members["message"] ?? members["details"] {
            throw base.error(.invalidValue(path: path, reason: "a rule ends the call with an HTTP/2 fault or a status, not both"), at: status.location)
        }
        if let request = members["request"] {
            rule.request = try grpcRequestPattern(request, api: api, path: "\(path).request")
        }
        rule.messages = try messages(members["messages"], api: api, path: "\(path).messages")
        rule.end = try status(members, path: path, api: api)
        return rule
    }

    /// `"status"`, `"message"` and `"details"`, when any is given.
    private func status(_ members: [String: JSONNode], path: String, api: String) throws(ResponseFileError) -> GRPCEndpointStatus? {
        guard members["status"] != nil || members["message"] != nil || members["details"] != nil else { return nil }
        var end = GRPCEndpointStatus()
        if let statusValue = members["status"] {
            guard case .number(let number) = statusValue.kind, number.rounded() == number, (0...16).contains(number) else {
                throw base.error(.invalidValue(path: "\(path).status", reason: "a gRPC status is a whole number from 0 to 16"), at: statusValue.location)
            }
            end.code = Int(number)
        }
        end.message = try members["message"].map { value throws(ResponseFileError) in try template(value, path: "\(path).message") }
        if let list = members["details"] {
            guard case .array(let items) = list.kind else {
                throw base.error(.wrongType(path: "\(path).details", expected: "an array of google.rpc detail objects with \"@type\"", found: list.typeName),
                                 at: list.location)
            }
            guard let schema else {
                throw base.error(.invalidValue(path: "\(path).details", reason: "details are read by google/rpc's schema: give --proto FILE (or --descriptor-set FILE)"), at: list.location)
            }
            for (index, item) in items.enumerated() {
                let itemPath = "\(path).details[\(index)]"
                guard case .object(let fields) = item.kind, fields.contains(where: { $0.key == "@type" }) else {
                    throw base.error(.invalidValue(path: itemPath, reason: "a detail is an object with \"@type\", such as {\"@type\": \"type.googleapis.com/google.rpc.BadRequest\", …}"),
                                     at: item.location)
                }
                let detail = try json(item, path: itemPath)
                if detail.isConstant {
                    do {
                        _ = try schema.statusDetails(code: end.code, message: nil, details: [detail], values: { _, _ in nil })
                    } catch {
                        throw base.error(.invalidValue(path: itemPath, reason: error.description), at: item.location)
                    }
                }
                end.details.append(detail)
            }
        }
        return end
    }

    /// A list of answer messages.
    private func messages(_ value: JSONNode?, api: String, path: String) throws(ResponseFileError) -> [GRPCEndpointMessage] {
        guard let value else { return [] }
        guard case .array(let items) = value.kind else {
            throw base.error(.wrongType(path: path, expected: "an array of messages", found: value.typeName), at: value.location)
        }
        var messages: [GRPCEndpointMessage] = []
        for (index, item) in items.enumerated() { messages.append(try grpcMessage(item, api: api, path: "\(path)[\(index)]")) }
        return messages
    }

    /// One gRPC message: `{"json": …}` (the response type's fields, by the loaded schema), or its
    /// bytes from `"base64"`, `"hex"` or a `"file"` (relative to the endpoints file, read now); and
    /// the `"delay"` before it.
    private func grpcMessage(_ value: JSONNode, api: String, path: String) throws(ResponseFileError) -> GRPCEndpointMessage {
        let fields = try base.members(of: value, path: path, known: ["json", "base64", "hex", "file", "delay"])
        let sources = ["json", "base64", "hex", "file"].filter { fields[$0] != nil }
        guard sources.count == 1 else {
            let reason = sources.isEmpty ? "a message has \"json\", \"base64\", \"hex\" or \"file\"" : "give one of \"json\", \"base64\", \"hex\" or \"file\", not \(sources.count)"
            throw base.error(.invalidValue(path: path, reason: reason), at: value.location)
        }
        let delay = try delay(fields["delay"], path: "\(path).delay")
        if let jsonValue = fields["json"] {
            let coder = try requireCoder(api: api, path: "\(path).json", at: jsonValue.location)
            let template = try json(jsonValue, path: "\(path).json")
            var constant: [UInt8]?
            if template.isConstant {
                do {
                    constant = try coder.response(jsonValue)
                } catch {
                    throw base.error(.invalidValue(path: "\(path).json", reason: "not a \(coder.method.outputType.dropFirst()): \(error)"), at: jsonValue.location)
                }
            }
            return GRPCEndpointMessage(.json(template, constant: constant), delay: delay)
        }
        let bytes: [UInt8]
        if let fileValue = fields["file"] {
            let name = try base.string(fileValue, path: "\(path).file")
            let url = URL(fileURLWithPath: name, relativeTo: base.file.map { URL(fileURLWithPath: $0).deletingLastPathComponent() })
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw base.error(.invalidValue(path: "\(path).file", reason: "cannot read \(url.path)"), at: fileValue.location)
            }
            bytes = Array(data)
        } else if case .object(let members) = value.kind {
            // The shared reader of {"base64": …} and {"hex": …}, given that member alone.
            let source = members.filter { $0.key == sources[0] }
            bytes = try base.bytes(JSONNode(kind: .object(source), location: value.location), path: path)
        } else {
            bytes = []
        }
        return GRPCEndpointMessage(.bytes(bytes), delay: delay)
    }

    /// The coder of the method `api` names, or an error that says why there is none: no schema is
    /// loaded, or none has the method (the loaded methods listed).
    private func requireCoder(api: String, path: String, at location: JSONNode.Location) throws(ResponseFileError) -> GRPCMessageCoder {
        guard let schema else {
            throw base.error(.invalidValue(path: path, reason: "JSON messages are read by a schema: give --proto FILE (or --descriptor-set FILE)"), at: location)
        }
        if let coder = schema.coder(path: api) { return coder }
        let known = schema.methodPaths
        let list = known.isEmpty ? "the loaded files have no services" : "the loaded methods: \(known.prefix(20).joined(separator: ", "))"
        throw base.error(.invalidValue(path: path, reason: "no loaded .proto file has the method \(api) (\(list))"), at: location)
    }
}
