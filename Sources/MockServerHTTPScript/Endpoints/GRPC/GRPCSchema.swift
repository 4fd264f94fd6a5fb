import MockServerCore
import MockServerProtobuf

/// The `.proto` schemas a server loaded (`--proto`, `--descriptor-set`, or from Swift), with their
/// JSON converter built once: what gRPC endpoints' JSON messages, request patterns and error details
/// are read by, and what reflection serves.
package struct GRPCSchema: Sendable {
    package let schema: ProtoSchema
    package let codec: ProtoJSONCodec
    /// Each file as `FileDescriptorProto` bytes, by name: what reflection sends.
    package let descriptors: [String: [UInt8]]

    /// Each method's coder by its call's path, made once (a call's lookup is one dictionary read).
    private let coders: [String: GRPCMessageCoder]

    package init(_ schema: ProtoSchema) {
        self.schema = schema
        let codec = ProtoJSONCodec(schema: schema)
        self.codec = codec
        var coders: [String: GRPCMessageCoder] = [:]
        for service in schema.services.values {
            for method in service.methods {
                let path = "/\(service.fullName)/\(method.name)"
                coders[path] = GRPCMessageCoder(schema: schema, codec: codec, path: path)
            }
        }
        self.coders = coders
        descriptors = Dictionary(schema.files.map { ($0.name, ProtoDescriptorWriter.fileDescriptorProto($0)) }, uniquingKeysWith: { first, _ in first })
    }

    /// The files every loaded schema has beside the user's: google/rpc's (for error details),
    /// reflection's and health's (which the server answers, and lists).
    package static let serverFiles = ["google/rpc/status.proto", "google/rpc/error_details.proto", "google/rpc/code.proto",
                                      "grpc/reflection/v1/reflection.proto", "grpc/reflection/v1alpha/reflection.proto", "grpc/health/v1/health.proto"]

    /// The schema of `.proto` files (`--proto`, named as protoc names them from `protoPaths`,
    /// `--proto-path`) and of descriptor sets (`--descriptor-set`, as `protoc --descriptor_set_out
    /// --include_imports` writes them), with ``serverFiles``.
    ///
    /// - Throws: ``MockServerProtobuf/ProtoError`` naming the file, line and column at fault, or the
    ///   descriptor set that cannot be read.
    package static func load(protoFiles: [String], protoPaths: [String] = [], descriptorSets: [String] = []) throws(ProtoError) -> GRPCSchema {
        let loader = ProtoLoader(protoPaths: protoPaths)
        var schema = ProtoSchema(files: [])
        for path in descriptorSets {
            for file in try loader.loadDescriptorSet(path).files { schema.add(file) }
        }
        for file in try loader.load(protoFiles, adding: serverFiles).files { schema.add(file) }
        return GRPCSchema(schema)
    }

    /// The coder of the method a call's path names, or `nil` when no loaded file has it.
    package func coder(path: String) -> GRPCMessageCoder? {
        coders[path]
    }

    /// The loaded methods' paths (`/pkg.Service/Method`), sorted, for errors that list them.
    package var methodPaths: [String] {
        schema.services.values.flatMap { service in service.methods.map { "/\(service.fullName)/\($0.name)" } }.sorted()
    }

    /// A `google.rpc.Status` with `code`, `message` and `details` (each a JSON object with `@type`,
    /// in order, with values from `values`), as bytes.
    package func statusDetails(code: Int, message: String?, details: [EndpointJSON],
                               values: (EndpointTemplate.Source, String) -> String?) throws(ProtoJSONError) -> [UInt8] {
        var text = "{\"code\":\(code)"
        if let message { text += ",\"message\":" + message.escaped(.json) }
        text += ",\"details\":[" + details.map { $0.render(values) }.joined(separator: ",") + "]}"
        let json: JSONNode
        do {
            json = try JSONReader.parse(Array(text.utf8), options: .strict)
        } catch {
            throw ProtoJSONError(path: "$.details", at: JSONNode.madeLocation, "not JSON once its values are put in: \(text)")
        }
        return try codec.binary(fromJSON: json, type: "google.rpc.Status")
    }

}
