import MockServerCore
import MockServerProtobuf

/// One method's messages converted by their schema: a request's bytes to proto3 JSON (every field,
/// those at their defaults too, so that patterns and templates see them), an answer's JSON to bytes,
/// and a value looked up for a template. Made once per endpoint at load; used on every call.
package struct GRPCMessageCoder: Sendable {
    /// The schema's converter.
    package let codec: ProtoJSONCodec
    /// The method, with its request and response types.
    package let method: ProtoService.Method
    /// The call's path (`/routeguide.RouteGuide/GetFeature`).
    package let path: String

    /// The coder of the method `path` names in `schema`, or `nil` when the schema has none.
    package init?(schema: ProtoSchema, codec: ProtoJSONCodec, path: String) {
        guard let (_, method) = schema.method(path: path) else { return nil }
        self.codec = codec
        self.method = method
        self.path = path
    }

    /// The request message `bytes` as JSON, every field written (defaults too).
    package func request(_ bytes: [UInt8]) throws(ProtoWireError) -> JSONNode {
        try codec.json(fromBinary: bytes, type: method.inputType, emittingDefaults: true)
    }

    /// The response message `json` as bytes.
    package func response(_ json: JSONNode) throws(ProtoJSONError) -> [UInt8] {
        try codec.binary(fromJSON: json, type: method.outputType)
    }

    /// The JSON text `text` (an answer's rendered template) as a response message's bytes.
    package func response(text: String) throws(ProtoJSONError) -> [UInt8] {
        let json: JSONNode
        do {
            json = try JSONReader.parse(Array(text.utf8), options: .strict)
        } catch {
            throw ProtoJSONError(path: "$", at: JSONNode.madeLocation, "the answer's JSON with its values put in is not JSON (\(error)): \(text)")
        }
        return try response(json)
    }

    /// The value at `path` (`location.latitude`, or `location.lat_e7` by proto names; `notes.0`
    /// for an element) in the request message `message`, for a `${json:…}` template: a field at its
    /// default as that default (`0`, `false`), an object or array as compact JSON; `nil` when the path
    /// names no field.
    package func value(_ path: String, in message: JSONNode) -> String? {
        codec.templateValue(at: path, in: message, type: method.inputType)
    }
}
