import Foundation
import MockServerCore
import MockServerHTTP
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

        package init(stub: Stub) {
            self.stub = stub
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
