import Foundation
import MockServerCore
import MockServerHTTP
import MockServerHTTPScript
import MockServerProtobuf

/// A recorded gRPC call decoded by the loaded schema, as the parts of an endpoint: the request's
/// first message as a `"request": {"grpc": {"json": …}}` pattern (every field, defaults too, so
/// that it matches that request and no other; none for a call the client streams), the answer's messages as
/// `{"json": …}`, and the status with its `"details"` read from `grpc-status-details-bin`.
///
/// Pure code: made from a ``RecordedExchange`` (already masked) and a ``GRPCSchema``. There is none
/// (`init` returns `nil`, and the exchange is written as bytes, as without a schema) when the
/// exchange is not a gRPC call the schema can read whole: not `POST` with `application/grpc`
/// (gRPC-Web keeps its bytes), not answered `200` with a `grpc-status`, a method the schema lacks,
/// a compressed or malformed message, or a message or text that holds `${` (which a replay would
/// take for a template).
struct GRPCRecordedCall: Sendable {
    /// What tells this call's endpoint from others: the path, and the request pattern's JSON.
    let key: String
    /// The endpoint's `"api"` member, and its `"request"` when the call is matched by its message.
    let endpointJSON: String
    /// The answer's fields to write beside `"grpc"`: its metadata but for the content type and the
    /// status; none for a trailers-only answer, whose fields are all trailers.
    let headers: [HTTPHeaderFields.Field]
    /// The `"grpc"` object: `"messages"`, `"status"`, `"message"` and `"details"`.
    let grpcJSON: String
    /// The trailers to write beside `"grpc"`: all but the status's, and `grpc-status-details-bin`
    /// as it came (from the trailers, or the headers of a trailers-only answer) when the schema
    /// could not decode it into `"details"`.
    let trailers: [HTTPHeaderFields.Field]

    /// The fields the `"grpc"` answer makes on replay, so never written as headers or trailers.
    private static let statusFields: Set<String> = ["grpc-status", "grpc-message", "grpc-status-details-bin"]

    /// The call `exchange` made, read by `schema`; `nil` when it is not one the schema reads whole.
    /// Fields `mask` names (its JSON names, at any depth, compared by ``MaskedFields``) are masked in
    /// the messages: left out of the request's pattern, so that any value matches on replay, and
    /// written as the mask's replacement in the answer's (left out there too when the replacement is
    /// not a value of a masked field's type: a number, a bool, a message).
    init?(_ exchange: RecordedExchange, schema: GRPCSchema, mask: HTTPRequestMask = HTTPRequestMask()) {
        let masked = MaskedFields(mask)
        let request = exchange.request
        guard request.method == "POST", Self.isGRPC(request.headers["content-type"]),
              exchange.status == 200, Self.isGRPC(exchange.headers["content-type"]) else { return nil }
        let path = String(AbsoluteURI.pathOnward(of: Substring(request.target)))
        guard !path.contains("?"), !path.contains(" "), let coder = schema.coder(path: path) else { return nil }
        // The status comes in the trailers, or in the headers of a trailers-only answer.
        let statusFields = exchange.trailers["grpc-status"] != nil ? exchange.trailers : exchange.headers
        guard let statusText = statusFields["grpc-status"], let code = Int(statusText), (0...16).contains(code) else { return nil }

        // The request: its first message, unless the client streams (then any request matches).
        var endpointJSON = "\"api\": " + "post \(path)".escaped(.json)
        var key = "grpc POST " + path
        if !coder.method.clientStreaming {
            guard let messages = try? GRPCMessageCodec.messages(in: exchange.requestBody, encoding: nil) else { return nil }
            if let first = messages.first {
                // Every field, defaults too: a pattern of the fields given would let a request
                // with all its fields at their defaults (`{}`) match every later one.
                guard let json = Self.json(first, type: coder.method.inputType, codec: schema.codec, emittingDefaults: true, masking: { masked.removing(from: $0) })
                else { return nil }
                endpointJSON += ", \"request\": { \"grpc\": { \"json\": \(json) } }"
                key += "\n" + json
            }
        }

        // The answer: messages, status, message, details.
        guard let messages = try? GRPCMessageCodec.messages(in: exchange.body, encoding: nil) else { return nil }
        var parts: [String] = []
        if !messages.isEmpty {
            var texts: [String] = []
            for message in messages {
                let type = coder.method.outputType
                guard let json = Self.json(message, type: type, codec: schema.codec, masking: { masked.replacing(in: $0, type: type, codec: schema.codec) })
                else { return nil }
                texts.append("{ \"json\": \(json) }")
            }
            parts.append("\"messages\": [ " + texts.joined(separator: ", ") + " ]")
        }
        parts.append("\"status\": \(code)")
        if let message = statusFields["grpc-message"], !message.isEmpty {
            let text = message.removingPercentEncoding ?? message
            guard !text.contains("${") else { return nil }
            parts.append("\"message\": " + text.escaped(.json))
        }
        // Details whose types the schema has become "details"; others stay bytes, in the trailers.
        var undecoded: [HTTPHeaderFields.Field] = []
        if let detailsText = statusFields["grpc-status-details-bin"] {
            if let details = Self.details(detailsText, codec: schema.codec) {
                if !details.isEmpty { parts.append("\"details\": [ " + details.joined(separator: ", ") + " ]") }
            } else {
                undecoded.append(HTTPHeaderFields.Field(name: "grpc-status-details-bin", value: detailsText))
            }
        }
        self.key = key
        self.endpointJSON = endpointJSON
        grpcJSON = "{ " + parts.joined(separator: ", ") + " }"
        let metadata = exchange.headers.filter { field in
            let name = field.name.lowercased()
            return name != "content-type" && !Self.statusFields.contains(name)
        }
        let trailing = exchange.trailers.filter { !Self.statusFields.contains($0.name.lowercased()) } + undecoded
        // A trailers-only answer's fields are all trailing metadata to its client (grpcio's
        // `trailing_metadata()`): written as trailers, so that the replay's client reads them there.
        let trailersOnly = exchange.trailers["grpc-status"] == nil
        headers = trailersOnly ? [] : metadata
        trailers = trailersOnly ? metadata + trailing : trailing
    }

    /// Whether a `Content-Type` is gRPC's over HTTP/2 (`application/grpc`, `+proto` or another
    /// suffix), not gRPC-Web's.
    static func isGRPC(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let type = contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return type == "application/grpc" || type.hasPrefix("application/grpc+")
    }

    /// `message` of type `type` in the proto3 JSON mapping, compact, fields at their defaults left
    /// out unless `emittingDefaults`; `nil` when it cannot be read by the schema or holds `${`.
    private static func json(_ message: [UInt8], type: String, codec: ProtoJSONCodec, emittingDefaults: Bool = false,
                             masking: (JSONNode) -> JSONNode) -> String? {
        guard let node = try? codec.json(fromBinary: message, type: type, emittingDefaults: emittingDefaults) else { return nil }
        let text = JSONText.write(masking(node), layout: .compact)
        return text.contains("${") ? nil : text
    }

    /// The detail objects (each with its `@type`, in order) of the `google.rpc.Status` that a
    /// `grpc-status-details-bin` value holds (base64, padded or not); `nil` when it is not one, or
    /// when a detail's type is not in the schema (the field is then kept as bytes).
    static func details(_ value: String, codec: ProtoJSONCodec) -> [String]? {
        var base64 = value.trimmingCharacters(in: .whitespaces)
        base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        guard let data = Data(base64Encoded: base64),
              let status = try? codec.json(fromBinary: Array(data), type: "google.rpc.Status", emittingDefaults: false) else { return nil }
        guard case .object(let members) = status.kind else { return nil }
        guard let list = members.first(where: { $0.key == "details" })?.value else { return [] }
        guard case .array(let items) = list.kind else { return nil }
        let texts = items.map { JSONText.write($0, layout: .compact) }
        return texts.contains { $0.contains("${") } ? nil : texts
    }
}
