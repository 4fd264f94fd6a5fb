import Foundation
import MockServerCore
import MockServerHTTP

extension Stub {
    /// The response side of a stub, from `andReturn(status)`: headers, a body, a delay, a fault, and
    /// further responses for later requests.
    public final class ResponseBuilder: Sendable {
        /// The stub being built.
        public let stub: Stub

        init(stub: Stub) {
            self.stub = stub
        }

        private func changeLast(_ change: @escaping (inout Stub.Response) -> Void) -> Stub.ResponseBuilder {
            stub.update { definition in
                guard case .responses(var responses) = definition.answer, !responses.isEmpty else { return }
                change(&responses[responses.count - 1])
                definition.answer = .responses(responses)
            }
            return self
        }

        /// Adds these headers to the response (sorted by name).
        @discardableResult
        public func withHeaders(_ headers: [String: String]) -> Stub.ResponseBuilder {
            changeLast { response in
                for (name, value) in headers.sorted(by: { $0.key < $1.key }) { response.headers[name] = value }
            }
        }

        /// Adds these trailers, sent after the body (sorted by name): on HTTP/1.1 the body then goes
        /// chunked, with the trailers in its last chunk.
        ///
        /// ```swift
        /// server.stubRequest("GET", "/report").andReturn(200).withBody("done").withTrailers(["Checksum": "abc"])
        /// ```
        @discardableResult
        public func withTrailers(_ trailers: [String: String]) -> Stub.ResponseBuilder {
            changeLast { response in
                for (name, value) in trailers.sorted(by: { $0.key < $1.key }) { response.trailers[name] = value }
            }
        }

        /// Sets the response body.
        @discardableResult
        public func withBody(_ body: String) -> Stub.ResponseBuilder {
            changeLast { $0.body = Array(body.utf8) }
        }

        /// Sets the response body.
        @discardableResult
        public func withBody(_ body: Data) -> Stub.ResponseBuilder {
            changeLast { $0.body = Array(body) }
        }

        /// Sets the body to the bytes of the file at `url`, read now.
        ///
        /// - Throws: the error of reading the file.
        @discardableResult
        public func withBody(contentsOf url: URL) throws -> Stub.ResponseBuilder {
            let data = try Data(contentsOf: url)
            return changeLast { $0.body = Array(data) }
        }

        /// Sets `value`, encoded as JSON, as the body, with `Content-Type: application/json`.
        @discardableResult
        public func withJSON(_ value: some Encodable) -> Stub.ResponseBuilder {
            let json = Stub.Response.json(value)
            return changeLast { response in
                response.body = json.body
                response.headers["Content-Type"] = "application/json"
            }
        }

        /// Sends the response only after `delay`, without holding a thread.
        @discardableResult
        public func withDelay(_ delay: Duration) -> Stub.ResponseBuilder {
            changeLast { $0.delay = delay }
        }

        /// Sends the response under network conditions (a slow or lossy endpoint), drawn with their
        /// probability for each request; the connection's own come back after it. In-process requests
        /// have no network and ignore them.
        ///
        /// ```swift
        /// var slow = NetworkConditions()
        /// slow.toClient.latency = .milliseconds(300)
        /// server.stubRequest("GET", "/quote").andReturn(200).withBody("42").withConditions(slow)
        /// ```
        @discardableResult
        public func withConditions(_ conditions: NetworkConditions) -> Stub.ResponseBuilder {
            changeLast { $0.conditions = conditions }
        }

        /// Fails instead (`.reset`, `.hang`) or shapes the response (`.truncate`, `.dribble`).
        @discardableResult
        public func withFault(_ fault: StreamFault) -> Stub.ResponseBuilder {
            changeLast { $0.fault = fault }
        }

        /// Answers the next request with `status` (the previous responses answer the earlier ones;
        /// the last repeats): `andReturn(503).then(200)`.
        @discardableResult
        public func then(_ status: Int) -> Stub.ResponseBuilder {
            stub.update { definition in
                guard case .responses(let responses) = definition.answer else { return }
                definition.answer = .responses(responses + [Stub.Response(status: status)])
            }
            return self
        }
    }
}
