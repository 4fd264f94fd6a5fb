import MockServerCore
import MockServerHTTP

/// ``StreamFault/truncateBody(after:)`` for a stub's reply: the head whole (with the `Content-Length`
/// of the whole body), then the body's first bytes, then a close. A client reads a response whose
/// body ends early (curl exits 18, URLSession fails with `networkConnectionLost`), never a response
/// without a head.
enum HTTPBodyCut {
    /// `steps` (a whole reply) with the body after the head cut to `count` bytes and a close after it.
    /// A body in timed pieces (chunked, gRPC) is cut the same way, counting the bytes of its pieces as
    /// sent; a reply with no body (`HEAD`, `204`, `304`) goes whole, then the close.
    static func steps(_ steps: [ReplyStep<HTTPReplyOutput>], cutAfter count: Int, request: HTTPMockRequest?) -> [ReplyStep<HTTPReplyOutput>] {
        var result: [ReplyStep<HTTPReplyOutput>] = []
        result.reserveCapacity(steps.count + 2)
        var left = max(0, count)
        var afterHead = false
        for step in steps {
            switch step {
            case .output(.response(let response)) where !afterHead:
                afterHead = true
                let bodiless = response.isBodiless || request?.method.equalsIgnoringASCIICase("HEAD") == true
                guard !bodiless, !response.body.isEmpty else {
                    result.append(step)
                    continue
                }
                // The head announces the whole body; the body follows as bytes of its own, to be cut.
                var head = response
                if !head.headers.contains("Content-Length"), !head.headers.contains("Transfer-Encoding") {
                    head.headers.add(name: "Content-Length", value: String(response.body.count))
                }
                head.body = []
                head.trailers = [:]
                result.append(.output(.response(head)))
                guard cut(response.body, left: &left, into: &result) else { return result }
            case .send(let bytes) where afterHead:
                guard cut(bytes, left: &left, into: &result) else { return result }
            default:
                result.append(step)
            }
        }
        result.append(.close)
        return result
    }

    /// Appends `bytes`, or as many as `left` allows and a close; `false` once cut.
    private static func cut(_ bytes: [UInt8], left: inout Int, into result: inout [ReplyStep<HTTPReplyOutput>]) -> Bool {
        if bytes.count <= left {
            left -= bytes.count
            if !bytes.isEmpty { result.append(.send(bytes)) }
            return true
        }
        if left > 0 { result.append(.send(Array(bytes.prefix(left)))) }
        result.append(.close)
        return false
    }
}
