import Foundation
import MockServerCore
import MockServerHTTP
import MockServerHTTPScript
import MockServerScript
import MockServerWebSocket

extension Stub {
    /// The request side of a stub, from `server.stubRequest("POST", "/dogs.json")`: what else a request
    /// must have (headers, a body), then `andReturn` for the response.
    ///
    /// Everything given here restricts which requests match; what follows `andReturn` shapes the
    /// response instead.
    public final class RequestBuilder: Sendable {
        /// The stub being built (already registered).
        public let stub: Stub
        /// The stub's path when it names a gRPC method (`/pkg.Service/Method`), and the server's
        /// loaded schema: what JSON messages and patterns are read by.
        private let grpcPath: String?
        private let schema: GRPCSchema?

        package init(stub: Stub, path: String? = nil, schema: GRPCSchema? = nil) {
            self.stub = stub
            grpcPath = path
            self.schema = schema
        }

        /// `error`, after the stub was made to answer it as an `INTERNAL` status: a stub whose
        /// message could not be made answers why, rather than whatever it answered before.
        private func failed(_ error: StubError) -> StubError {
            let answer = Stub.Response.grpc(status: 13, message: error.description)
            stub.update { $0.answer = .responses([answer]) }
            return error
        }

        /// The coder of the stub's gRPC method, or the error that says why there is none.
        private func coder() throws(StubError) -> GRPCMessageCoder {
            guard let schema else { throw failed(.grpcMessage("no schema is loaded: call loadProtos first")) }
            guard let grpcPath, let coder = schema.coder(path: grpcPath) else {
                throw failed(.grpcMessage("no loaded .proto file has the method \(grpcPath ?? "of this stub's path") (the loaded methods: \(schema.methodPaths.prefix(20).joined(separator: ", ")))"))
            }
            return coder
        }

        /// `json` parsed (strictly), or the error naming why not.
        private static func parse(_ json: String) throws(StubError) -> JSONNode {
            do {
                return try JSONReader.parse(Array(json.utf8), options: .strict)
            } catch {
                throw .grpcMessage("not JSON: \(error.message)")
            }
        }

        /// `value` as JSON, by `JSONEncoder`.
        private static func encode(_ value: some Encodable) throws(StubError) -> JSONNode {
            do {
                return try parse(String(decoding: try JSONEncoder().encode(value), as: UTF8.self))
            } catch let error as StubError {
                throw error
            } catch {
                throw .grpcMessage("\(error)")
            }
        }

        /// Requires the gRPC call's (first) request message to have the fields `json` gives, in the
        /// proto3 JSON mapping by the loaded schema: others are ignored, and a field at its default
        /// matches its absence.
        ///
        /// ```swift
        /// try server.stubRequest("POST", "/shop.Items/Get").withGRPCRequest(json: #"{"id": "7"}"#)
        ///     .andReturnGRPC(json: [#"{"id": "7", "name": "seven"}"#])
        /// ```
        ///
        /// - Throws: ``StubError/grpcMessage(_:)`` when no loaded schema has the method, or `json`
        ///   is not a message of its request type.
        @discardableResult
        public func withGRPCRequest(json: String) throws(StubError) -> Stub.RequestBuilder {
            let coder = try coder()
            let pattern: GRPCRequestPattern
            do {
                pattern = try GRPCRequestPattern(json: try Self.parse(json), coder: coder)
            } catch let error as StubError {
                throw failed(error)
            } catch {
                throw failed(.grpcMessage("\(error)"))
            }
            stub.update { $0.body = .grpc(pattern) }
            return self
        }

        /// ``withGRPCRequest(json:)`` with the fields of an `Encodable` value, as `JSONEncoder` writes
        /// them (its keys are the fields' JSON or proto names).
        @discardableResult
        public func withGRPCRequest(encoding value: some Encodable) throws(StubError) -> Stub.RequestBuilder {
            let json = try Self.encode(value)
            return try withGRPCRequest(json: JSONText.write(json, layout: .compact))
        }

        /// Answers with gRPC messages given as JSON in the proto3 mapping, converted now by the loaded
        /// schema into the method's response type; then `status` and `message` as
        /// ``andReturnGRPC(_:status:message:)`` sends them.
        ///
        /// - Throws: ``StubError/grpcMessage(_:)`` when no loaded schema has the method, or a message
        ///   is not one of its response type (the reason names the field); the stub then answers
        ///   that reason as an `INTERNAL` status.
        @discardableResult
        public func andReturnGRPC(json messages: [String], status: Int = 0, message: String? = nil) throws(StubError) -> Stub.ResponseBuilder {
            let coder = try coder()
            var bytes: [Data] = []
            for (index, text) in messages.enumerated() {
                do {
                    bytes.append(Data(try coder.response(try Self.parse(text))))
                } catch let error as StubError {
                    throw failed(error)
                } catch {
                    throw failed(.grpcMessage("message \(index + 1): \(error)"))
                }
            }
            return andReturnGRPC(bytes, status: status, message: message)
        }

        /// ``andReturnGRPC(json:status:message:)`` with `Encodable` values, as `JSONEncoder` writes
        /// them (a `Codable` struct whose properties are the message's fields).
        ///
        /// ```swift
        /// struct Item: Codable { var id: String; var name: String }
        /// try server.stubRequest("POST", "/shop.Items/Get").andReturnGRPC(encoding: [Item(id: "7", name: "seven")])
        /// ```
        @discardableResult
        public func andReturnGRPC(encoding messages: [some Encodable], status: Int = 0, message: String? = nil) throws(StubError) -> Stub.ResponseBuilder {
            var texts: [String] = []
            for value in messages { texts.append(JSONText.write(try Self.encode(value), layout: .compact)) }
            return try andReturnGRPC(json: texts, status: status, message: message)
        }

        /// Requires these headers, by name in any case, with exactly these values.
        @discardableResult
        public func withHeaders(_ headers: [String: String]) -> Stub.RequestBuilder {
            stub.update { definition in
                for (name, value) in headers.sorted(by: { $0.key < $1.key }) { definition.headers.add(name: name, value: value) }
            }
            return self
        }

        /// Requires one header, by name in any case, with exactly this value.
        @discardableResult
        public func withHeader(_ name: String, _ value: String) -> Stub.RequestBuilder {
            stub.update { $0.headers.add(name: name, value: value) }
            return self
        }

        /// Requires this body, exactly.
        @discardableResult
        public func withBody(_ body: String) -> Stub.RequestBuilder {
            stub.update { $0.body = .bytes(Array(body.utf8)) }
            return self
        }

        /// Requires this body, exactly.
        @discardableResult
        public func withBody(_ body: Data) -> Stub.RequestBuilder {
            stub.update { $0.body = .bytes(Array(body)) }
            return self
        }

        /// Requires a body whose text contains a match of `pattern` (dot-all, as in response files).
        ///
        /// - Throws: ``PatternError`` when the pattern does not compile.
        @discardableResult
        public func withBody(matching pattern: String) throws -> Stub.RequestBuilder {
            let compiled = try InputPattern(pattern)
            stub.update { $0.body = .pattern(compiled) }
            return self
        }

        /// Requires a body that is the same JSON as `json`, compared structurally (key order and
        /// spacing do not matter). A `json` that is not JSON is compared as text.
        @discardableResult
        public func withJSONBody(_ json: String) -> Stub.RequestBuilder {
            let canonical = StubJSON.canonical(Array(json.utf8))
            stub.update { $0.body = canonical.map { .json(canonical: $0) } ?? .bytes(Array(json.utf8)) }
            return self
        }

        /// Requires a body that `accepts` returns `true` for.
        @discardableResult
        public func withBody(where accepts: @escaping @Sendable (Data) -> Bool) -> Stub.RequestBuilder {
            stub.update { $0.body = .predicate(accepts) }
            return self
        }

        /// Answers with `status`; shape the response with the builder it returns.
        @discardableResult
        public func andReturn(_ status: Int) -> Stub.ResponseBuilder {
            stub.update { $0.answer = .responses([Stub.Response(status: status)]) }
            return Stub.ResponseBuilder(stub: stub)
        }

        /// Answers with a gRPC call's result (``Stub/Response/grpc(_:status:message:headers:)``):
        /// `messages` length-prefixed, each after its delay, then `grpc-status` and `grpc-message` as
        /// trailers; a `status` other than 0 with no messages is a trailers-only error. Shape it
        /// further (a delay, headers) with the builder it returns.
        ///
        /// ```swift
        /// server.stubRequest("POST", "/shop.Items/Get").andReturnGRPC([Data([0x08, 0x07])])
        /// server.stubRequest("POST", "/shop.Items/Delete").andReturnGRPC(status: 7, message: "not yours")
        /// ```
        @discardableResult
        public func andReturnGRPC(_ messages: [Data] = [], status: Int = 0, message: String? = nil) -> Stub.ResponseBuilder {
            let answer = Stub.Response.grpc(messages.map { StubStream.Piece(Array($0)) }, status: status, message: message)
            stub.update { $0.answer = .responses([answer]) }
            return Stub.ResponseBuilder(stub: stub)
        }

        /// Answers with these responses in turn, the last one for every later request (a 503, then
        /// 200s, for a retry test).
        public func andReturn(_ responses: Stub.Response...) {
            guard !responses.isEmpty else { return }
            stub.update { $0.answer = .responses(responses) }
        }

        /// Answers with the response in `raw`, as `curl -is` prints it (a status line, headers, a blank
        /// line and the body). `Transfer-Encoding` and `Content-Length` from the capture are replaced by
        /// the body's true length, so that clients read exactly the body that is there.
        ///
        /// - Throws: ``StubError/malformedRawResponse(_:)`` when `raw` has no status line or no blank
        ///   line after its headers.
        public func andReturnRawResponse(_ raw: Data) throws {
            let response = try RawResponse.parse(Array(raw))
            stub.update { $0.answer = .responses([response]) }
        }

        /// Answers with the response in `raw`, as `curl -is` prints it; see the `Data` form.
        public func andReturnRawResponse(_ raw: String) throws {
            try andReturnRawResponse(Data(raw.utf8))
        }

        /// Answers with a WebSocket: the opening handshake is checked as RFC 6455 asks (a request that
        /// is not one gets 400, 405 or 426 with the reason), then `handler` gets the open connection.
        /// The server answers pings and runs the close handshake; when the handler returns it closes
        /// with 1000, when it throws with 1011 and the error. Pushes from
        /// `server.sendWebSocketMessage` and the admin API reach these connections too.
        ///
        /// ```swift
        /// server.stubRequest("GET", "/prices").andUpgradeToWebSocket { socket in
        ///     try await socket.send("price 41")
        ///     for try await message in socket.messages where message == .text("more") {
        ///         try await socket.send("price 42")
        ///     }
        /// }
        /// ```
        ///
        /// - Parameters:
        ///   - subprotocols: those spoken, preferred first; the first the client offers is agreed
        ///     (``WebSocketConnection/subprotocol``).
        ///   - maximumMessageLength: the longest message taken, fragments together; a longer one
        ///     fails the connection with 1009.
        public func andUpgradeToWebSocket(subprotocols: [String] = [], maximumMessageLength: Int = 16 << 20,
                                          _ handler: @escaping @Sendable (WebSocketConnection) async throws -> Void) {
            let webSocket = WebSocketStub(subprotocols: subprotocols, maximumMessageLength: maximumMessageLength, handler: handler)
            stub.update { $0.answer = .webSocket(webSocket) }
        }
    }
}
