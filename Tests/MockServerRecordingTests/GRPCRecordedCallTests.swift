import Foundation
import Testing
import TestSupport
import MockServerHTTP
import MockServerHTTPScript
@testable import MockServerRecording

/// A recorded gRPC call read by a schema (pure code): which exchanges become JSON endpoints, what
/// their parts say, and which stay bytes.
@Suite("Recording: gRPC calls read by a schema")
struct GRPCRecordedCallTests {
    static let proto = """
        syntax = "proto3";
        package shop;
        service Items {
          rpc Get(ItemRequest) returns (Item);
          rpc Upload(stream Item) returns (Item);
          rpc Login(LoginRequest) returns (Session);
          rpc Pin(ItemRequest) returns (PinCode);
        }
        message ItemRequest { int64 id = 1; bool detailed = 2; }
        message Item { int64 id = 1; string name = 2; }
        message LoginRequest { string user = 1; string password = 2; }
        message Session { string access_token = 1; string user = 2; }
        message PinCode { int32 secret = 1; string note = 2; }
        """

    /// A `google.rpc.Status` (code 3, "bad id") with one `BadRequest` detail, in base64.
    static let badRequestStatus = "CAMSBmJhZCBpZBpCCil0eXBlLmdvb2dsZWFwaXMuY29tL2dvb2dsZS5ycGMuQmFkUmVxdWVzdBIVChMKAmlkEg1tdXN0IG5vdCBiZSAw"
    /// A `google.rpc.Status` (code 3) whose one detail is an `elsewhere.Secret` no schema has, unpadded.
    static let unknownTypeStatus = "CAMaKgokdHlwZS5nb29nbGVhcGlzLmNvbS9lbHNld2hlcmUuU2VjcmV0EgIIAQ"

    private func schema() throws -> GRPCSchema {
        let directory = try Tools.temporaryDirectory()
        try Self.proto.write(to: directory.appendingPathComponent("shop.proto"), atomically: true, encoding: .utf8)
        return try GRPCSchema.load(protoFiles: ["shop.proto"], protoPaths: [directory.path])
    }

    /// `messages` (hex each) with gRPC's prefixes.
    private func framed(_ messages: [String]) -> [UInt8] {
        messages.flatMap { hex -> [UInt8] in
            let bytes = stride(from: 0, to: hex.count, by: 2).map { UInt8(hex.dropFirst($0).prefix(2), radix: 16)! }
            return [0] + withUnsafeBytes(of: UInt32(bytes.count).bigEndian, Array.init) + bytes
        }
    }

    private func exchange(path: String = "/shop.Items/Get", contentType: String = "application/grpc", request: [String] = ["0807"],
                          answer: [String] = ["0807120573657665 6e".replacingOccurrences(of: " ", with: "")], status: Int = 200,
                          headers: HTTPHeaderFields = ["content-type": "application/grpc", "x-served-by": "a"],
                          trailers: HTTPHeaderFields = ["grpc-status": "0", "x-trace": "t"]) throws -> RecordedExchange {
        let head = "POST \(path) HTTP/1.1\r\nHost: h\r\nContent-Type: \(contentType)\r\nTE: trailers\r\n\r\n"
        let parsed = try #require(HTTPMockRequest(parsing: Array(head.utf8)))
        return RecordedExchange(request: parsed, requestBody: framed(request), status: status, reason: "OK", headers: headers,
                                body: framed(answer), elapsed: .zero, trailers: trailers)
    }

    @Test("a unary call: matched by its request's every field, its answer as JSON, metadata and trailers kept but for the content type and status")
    func unary() throws {
        let call = try #require(GRPCRecordedCall(try exchange(), schema: try schema()))
        #expect(call.endpointJSON == #""api": "post /shop.Items/Get", "request": { "grpc": { "json": {"id":"7","detailed":false} } }"#)
        #expect(call.key == "grpc POST /shop.Items/Get\n{\"id\":\"7\",\"detailed\":false}")
        #expect(call.grpcJSON == #"{ "messages": [ { "json": {"id":"7","name":"seven"} } ], "status": 0 }"#)
        #expect(call.headers == [HTTPHeaderFields.Field(name: "x-served-by", value: "a")])
        #expect(call.trailers == [HTTPHeaderFields.Field(name: "x-trace", value: "t")])
    }

    @Test("a request with every field at its default is a pattern of those defaults, not {} (which would match any request)")
    func defaultRequest() throws {
        let call = try #require(GRPCRecordedCall(try exchange(request: [""]), schema: try schema()))
        #expect(call.endpointJSON.hasSuffix(#""json": {"id":"0","detailed":false} } }"#), "\(call.endpointJSON)")
    }

    @Test("a client-streaming call is not matched by its messages; its key is its path alone")
    func clientStreaming() throws {
        let call = try #require(GRPCRecordedCall(try exchange(path: "/shop.Items/Upload", request: ["0801", "0802"]), schema: try schema()))
        #expect(call.endpointJSON == #""api": "post /shop.Items/Upload""#)
        #expect(call.key == "grpc POST /shop.Items/Upload")
    }

    @Test("a trailers-only error: the status and message from the headers (percent-decoded), the details decoded by google/rpc's schema, the other fields as trailers")
    func trailersOnlyError() throws {
        let headers: HTTPHeaderFields = ["content-type": "application/grpc", "grpc-status": "3", "grpc-message": "bad%20id%3A%20%E2%9C%97",
                                         "grpc-status-details-bin": Self.badRequestStatus, "x-trace": "t"]
        let call = try #require(GRPCRecordedCall(try exchange(answer: [], headers: headers, trailers: [:]), schema: try schema()))
        #expect(call.grpcJSON == #"{ "status": 3, "message": "bad id: ✗", "details": [ {"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"id","description":"must not be 0"}]} ] }"#)
        // Its metadata is trailing metadata to the client.
        #expect(call.headers.isEmpty && call.trailers == [HTTPHeaderFields.Field(name: "x-trace", value: "t")], "\(call.headers) \(call.trailers)")
    }

    @Test("details of a type the schema lacks stay bytes: grpc-status-details-bin kept as a trailer, as it came, even from the headers")
    func unknownDetailType() throws {
        let headers: HTTPHeaderFields = ["content-type": "application/grpc", "grpc-status": "3", "grpc-status-details-bin": Self.unknownTypeStatus]
        let call = try #require(GRPCRecordedCall(try exchange(answer: [], headers: headers, trailers: [:]), schema: try schema()))
        #expect(call.grpcJSON == #"{ "status": 3 }"#)
        #expect(call.trailers == [HTTPHeaderFields.Field(name: "grpc-status-details-bin", value: Self.unknownTypeStatus)])
        #expect(call.headers.isEmpty)
    }

    @Test("stays bytes: another method, gRPC-Web, a non-200 answer, no grpc-status, a compressed or broken message, a message that is not the type, ${ in a string")
    func staysBytes() throws {
        let schema = try schema()
        let cases: [(String, RecordedExchange)] = [
            ("unknown method", try exchange(path: "/shop.Items/Gone")),
            ("gRPC-Web", try exchange(contentType: "application/grpc-web+proto")),
            ("not 200", try exchange(status: 503)),
            ("no status", try exchange(trailers: ["x-trace": "t"])),
            ("status out of range", try exchange(trailers: ["grpc-status": "17"])),
            ("not the type", try exchange(answer: ["0a"])),
            ("template text", try exchange(answer: ["1204247b787d"])),
            ("template message", try exchange(trailers: ["grpc-status": "2", "grpc-message": "${x}"])),
        ]
        for (name, exchange) in cases {
            #expect(GRPCRecordedCall(exchange, schema: schema) == nil, "\(name)")
        }
        var compressed = try exchange()
        compressed = RecordedExchange(request: compressed.request, requestBody: compressed.requestBody, status: 200, reason: "OK",
                                      headers: compressed.headers, body: [1, 0, 0, 0, 2, 8, 7], elapsed: .zero, trailers: compressed.trailers)
        #expect(GRPCRecordedCall(compressed, schema: schema) == nil)
        var cut = compressed
        cut = RecordedExchange(request: cut.request, requestBody: cut.requestBody, status: 200, reason: "OK", headers: cut.headers,
                               body: [0, 0, 0, 0, 9, 8], elapsed: .zero, trailers: cut.trailers)
        #expect(GRPCRecordedCall(cut, schema: schema) == nil)
    }

    @Test("the content type: application/grpc and its +suffixes with parameters, in any case; not gRPC-Web, not absent")
    func contentTypes() {
        #expect(GRPCRecordedCall.isGRPC("application/grpc"))
        #expect(GRPCRecordedCall.isGRPC("Application/GRPC+proto; charset=x"))
        #expect(!GRPCRecordedCall.isGRPC("application/grpc-web"))
        #expect(!GRPCRecordedCall.isGRPC("application/grpcx"))
        #expect(!GRPCRecordedCall.isGRPC(nil))
    }

    @Test("masked fields (the mask's JSON names, by JSON or proto name): left out of the request pattern, the replacement in answers, left out where it cannot stand")
    func maskedFields() throws {
        let schema = try schema()
        // LoginRequest{user: "ann", password: "pw"} answered Session{access_token: "tok", user: "ann"}.
        let login = try #require(GRPCRecordedCall(try exchange(path: "/shop.Items/Login", request: ["0a03616e6e12027077"], answer: ["0a03746f6b1203616e6e"]),
                                                  schema: schema, mask: .standard))
        #expect(login.endpointJSON == #""api": "post /shop.Items/Login", "request": { "grpc": { "json": {"user":"ann"} } }"#)
        #expect(login.grpcJSON == #"{ "messages": [ { "json": {"accessToken":"MASKED","user":"ann"} } ], "status": 0 }"#)
        // PinCode{secret: 42, note: "n"}: an int32 cannot be the replacement, so it is left out.
        let pin = try #require(GRPCRecordedCall(try exchange(path: "/shop.Items/Pin", request: ["0801"], answer: ["082a12016e"]),
                                                schema: schema, mask: .standard))
        #expect(pin.grpcJSON == #"{ "messages": [ { "json": {"note":"n"} } ], "status": 0 }"#)
        // Without a mask, written as they came.
        let open = try #require(GRPCRecordedCall(try exchange(path: "/shop.Items/Login", request: ["0a03616e6e12027077"], answer: ["0a03746f6b1203616e6e"]),
                                                 schema: schema))
        #expect(open.endpointJSON.contains(#""password":"pw""#))
        #expect(open.grpcJSON.contains(#""accessToken":"tok""#))
    }
}
