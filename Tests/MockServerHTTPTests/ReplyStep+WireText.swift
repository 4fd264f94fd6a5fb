import MockServerCore
import MockServerHTTP

extension Array where Element == ReplyStep<HTTPReplyOutput> {
    /// What these reply steps send, as text, one string a step: a response as the serializer writes
    /// it for `request`, sent bytes as they are, a pause as `pause 0.05 seconds` (the tests of gRPC's
    /// and gRPC-Web's answers compare them).
    func wireText(answering request: HTTPMockRequest?) -> [String] {
        map { step in
            switch step {
            case .pause(let duration): "pause \(duration)"
            case .output(.response(let response)): String(decoding: HTTPResponseSerializer.serialize(response, for: request).bytes, as: UTF8.self)
            case .send(let bytes): String(decoding: bytes, as: UTF8.self)
            default: "\(step)"
            }
        }
    }
}
