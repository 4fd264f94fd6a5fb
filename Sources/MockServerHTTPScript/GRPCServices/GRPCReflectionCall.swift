import MockServerCore
import MockServerHTTP
import MockServerProtobuf

/// One call of gRPC server reflection (`grpc.reflection.v1.ServerReflection/ServerReflectionInfo`,
/// and `v1alpha`'s, whose messages are the same): a bidirectional stream in which each request
/// (list the services; the file by name; the file that declares a symbol; extensions) is answered as
/// it arrives, from the loaded schema, so that `grpcurl list` and `describe`, grpcui, Postman and
/// Kreya work. Files go as `FileDescriptorProto` bytes, each with the files it imports (transitively).
/// Hand-read and hand-written with the wire reader and writer: it needs no schema of its own.
package final class GRPCReflectionCall: HTTPStreamingAnswer {
    package let name: String? = "gRPC server reflection"
    /// The paths of reflection's call, v1's and v1alpha's.
    package static let paths: Set<String> = ["/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
                                             "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo"]
    private let schema: GRPCSchema
    private var reader: GRPCMessageReader
    private var headSent = false
    package private(set) var isFinished = false
    private var notes: [Transcript.Note] = []

    /// `NOT_FOUND`, reflection's error for a name the schema does not have.
    private static let notFound: Int32 = 5
    /// `INVALID_ARGUMENT`, for a request reflection does not know.
    private static let invalidArgument: Int32 = 3

    package init(schema: GRPCSchema, maximumMessageLength: Int) {
        self.schema = schema
        reader = GRPCMessageReader(maximumLength: maximumMessageLength, encoding: nil)
    }

    package var heldByteCount: Int { reader.heldByteCount }

    package func takeNotes() -> [Transcript.Note] {
        defer { notes = [] }
        return notes
    }

    package func received(_ bytes: [UInt8]) -> [ReplyStep<HTTPReplyOutput>] {
        guard !isFinished else { return [] }
        let requests: [[UInt8]]
        do {
            requests = try reader.read(bytes)
        } catch {
            return finish(code: 13, message: error.description)
        }
        var steps: [ReplyStep<HTTPReplyOutput>] = []
        for request in requests {
            let response: [UInt8]
            do {
                response = try answer(request)
            } catch {
                return steps + finish(code: 13, message: "reflection request \(reader.count): \(error)")
            }
            if !headSent {
                headSent = true
                steps.append(GRPCAnswer.streamedHead(adding: [:]))
            }
            steps.append(GRPCAnswer.streamedMessage(response))
        }
        return steps
    }

    package func ended() -> [ReplyStep<HTTPReplyOutput>] {
        guard !isFinished else { return [] }
        return finish(code: 0, message: nil)
    }

    /// The steps answering a whole body (a client that sent every request before reading).
    package func steps(forBody body: [UInt8]) -> [ReplyStep<HTTPReplyOutput>] {
        received(body) + ended()
    }

    /// The `ServerReflectionResponse` to one `ServerReflectionRequest`.
    private func answer(_ request: [UInt8]) throws(ProtoWireError) -> [UInt8] {
        var host = ""
        var kind: (field: Int32, text: String)?
        var wire = ProtoWireReader(request)
        while let (field, type) = try wire.tag() {
            switch (field, type) {
            case (1, .lengthDelimited): host = String(decoding: request[try wire.lengthDelimited()], as: UTF8.self)
            case (3, .lengthDelimited), (4, .lengthDelimited), (6, .lengthDelimited), (7, .lengthDelimited):
                kind = (field, String(decoding: request[try wire.lengthDelimited()], as: UTF8.self))
            case (5, .lengthDelimited):
                // file_containing_extension: its containing type.
                let range = try wire.lengthDelimited()
                var inner = ProtoWireReader(request, range: range)
                var containing = ""
                while let (innerField, innerType) = try inner.tag() {
                    if innerField == 1, innerType == .lengthDelimited {
                        containing = String(decoding: request[try inner.lengthDelimited()], as: UTF8.self)
                    } else {
                        _ = try inner.skip(innerType, field: innerField)
                    }
                }
                kind = (5, containing)
            default: _ = try wire.skip(type, field: field)
            }
        }
        var response = ProtoWireWriter(capacity: 256)
        response.string(1, host)
        response.message(2, request)
        guard let kind else {
            notes.append(Transcript.Note(kind: "grpc-reflection", text: "<- reflection: an empty request"))
            response.message(7, Self.error(Self.invalidArgument, "the request asks for nothing"))
            return response.bytes
        }
        switch kind.field {
        case 7:
            notes.append(Transcript.Note(kind: "grpc-reflection", text: "<- reflection: list services"))
            var list = ProtoWireWriter()
            for service in schema.schema.services.keys.sorted() {
                var entry = ProtoWireWriter()
                entry.string(1, service)
                list.message(1, entry.bytes)
            }
            response.message(6, list.bytes)
        case 3, 4:
            let file = kind.field == 3 ? (schema.schema.file(kind.text) != nil ? kind.text : nil) : fileDeclaring(kind.text)
            notes.append(Transcript.Note(kind: "grpc-reflection", text: "<- reflection: \(kind.field == 3 ? "file" : "symbol") \(kind.text)"))
            guard let file else {
                let what = kind.field == 3 ? "file" : "symbol"
                response.message(7, Self.error(Self.notFound, "no loaded \(what) \(kind.text)"))
                return response.bytes
            }
            var files = ProtoWireWriter()
            for name in withImports(file) {
                if let bytes = schema.descriptors[name] { files.message(1, bytes) }
            }
            response.message(4, files.bytes)
        case 6:
            notes.append(Transcript.Note(kind: "grpc-reflection", text: "<- reflection: extensions of \(kind.text)"))
            guard schema.schema.message(kind.text) != nil else {
                response.message(7, Self.error(Self.notFound, "no loaded message \(kind.text)"))
                return response.bytes
            }
            // Extensions are not kept: the type has none the server knows.
            var numbers = ProtoWireWriter()
            numbers.string(1, kind.text)
            response.message(5, numbers.bytes)
        default:
            notes.append(Transcript.Note(kind: "grpc-reflection", text: "<- reflection: extension of \(kind.text)"))
            response.message(7, Self.error(Self.notFound, "no loaded extension of \(kind.text)"))
        }
        return response.bytes
    }

    /// The file that declares `symbol`: a message, enum or service, or a service's method
    /// (`pkg.Service.Method`), or a message's field or an enum's value.
    private func fileDeclaring(_ symbol: String) -> String? {
        let name = symbol.hasPrefix(".") ? String(symbol.dropFirst()) : symbol
        if let file = schema.schema.fileOfSymbol[name] { return file }
        guard let dot = name.lastIndex(of: ".") else { return nil }
        return schema.schema.fileOfSymbol[String(name[..<dot])]
    }

    /// `file` and every file it imports, transitively, each once, `file` first.
    private func withImports(_ file: String) -> [String] {
        var order: [String] = []
        var seen: Set<String> = []
        var stack = [file]
        while let next = stack.popLast() {
            guard seen.insert(next).inserted else { continue }
            order.append(next)
            stack += (schema.schema.file(next)?.dependencies ?? []).reversed()
        }
        return order
    }

    private static func error(_ code: Int32, _ message: String) -> [UInt8] {
        var error = ProtoWireWriter()
        error.varintField(1, UInt64(UInt32(bitPattern: code)))
        error.string(2, message)
        return error.bytes
    }

    private func finish(code: Int, message: String?) -> [ReplyStep<HTTPReplyOutput>] {
        isFinished = true
        guard headSent else { return [.output(.response(GRPCAnswer.trailersOnly(status: code, message: message)))] }
        return [GRPCAnswer.streamedEnd(status: code, message: message)]
    }
}
