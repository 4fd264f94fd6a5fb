import MockServerCore
import MockServerHTTP
import MockServerProtobuf

/// gRPC's health service (`grpc.health.v1.Health`), on whenever a schema is loaded: `Check` answers
/// `SERVING` for the empty name (the server) and for each loaded service, and `NOT_FOUND` (status 5)
/// for any other name; `Watch` sends `SERVING` (or `SERVICE_UNKNOWN` for a name not loaded) and then
/// holds the stream open, as a server whose status never changes does.
package enum GRPCHealthService {
    /// `Check`'s path.
    package static let checkPath = "/grpc.health.v1.Health/Check"
    /// `Watch`'s path.
    package static let watchPath = "/grpc.health.v1.Health/Watch"

    /// `ServingStatus.SERVING`.
    private static let serving: UInt64 = 1
    /// `ServingStatus.SERVICE_UNKNOWN` (Watch's answer for a name not loaded).
    private static let serviceUnknown: UInt64 = 3

    /// The steps answering a whole `Check` or `Watch` request to `path`, or `nil` for another path.
    package static func steps(path: String, body: [UInt8], schema: GRPCSchema) -> [ReplyStep<HTTPReplyOutput>]? {
        guard path == checkPath || path == watchPath else { return nil }
        let service: String
        do {
            let messages = try GRPCMessageCodec.messages(in: body, encoding: nil)
            guard messages.count == 1 else {
                return [.output(.response(GRPCAnswer.trailersOnly(status: 13, message: "a health request is one message, not \(messages.count)")))]
            }
            service = try name(in: messages[0])
        } catch {
            return [.output(.response(GRPCAnswer.trailersOnly(status: 13, message: "\(error)")))]
        }
        let known = service.isEmpty || schema.schema.services[service] != nil
        if path == checkPath {
            guard known else { return [.output(.response(GRPCAnswer.trailersOnly(status: 5, message: "unknown service \(service)")))] }
            return GRPCAnswer(messages: [HTTPMockResponse.StreamPiece(status(serving))]).steps(for: nil, delay: nil, headers: [:])
        }
        var body = HTTPStreamedBody([HTTPMockResponse.StreamPiece(GRPCMessageCodec.frame(status(known ? serving : serviceUnknown)))], end: .hang)
        body.trailers = [:]
        return [.output(.response(body.head(for: HTTPMockResponse(status: 200, headers: GRPCAnswer.head(adding: [:])))))] + body.steps
    }

    /// A `HealthCheckRequest`'s `service`.
    private static func name(in message: [UInt8]) throws(ProtoWireError) -> String {
        var reader = ProtoWireReader(message)
        var service = ""
        while let (field, type) = try reader.tag() {
            if field == 1, type == .lengthDelimited {
                service = String(decoding: message[try reader.lengthDelimited()], as: UTF8.self)
            } else {
                _ = try reader.skip(type, field: field)
            }
        }
        return service
    }

    /// A `HealthCheckResponse` with `status`.
    private static func status(_ value: UInt64) -> [UInt8] {
        var writer = ProtoWireWriter()
        writer.varintField(1, value)
        return writer.bytes
    }
}
