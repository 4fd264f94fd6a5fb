import MockServerCore
import MockServerScript

/// The trait of a response with `"head": true` (HTTP's ``HTTPScriptProtocol`` reads it): the
/// response answers the head of a request whose client waits for `100 Continue` before sending
/// the body, instead of whole requests.
///
/// When such a response matches, its commands are the answer: `«continue»` lets the body come,
/// and the whole request is then answered as usual; without it the body is never awaited, and
/// once the answer is sent the server stops sending, discards what the client still sends and
/// closes when the client does.
package struct HTTPHeadAnswer: PartialInputAnswer {
    /// The trait `"head": true` gives.
    package init() {}

    /// The trait of `head`'s value (`true`: this one; `false`: none), for a response whose
    /// pattern is `pattern`.
    ///
    /// - Throws: ``MockServerScript/ResponseFileError`` when the value is not a Boolean, or when a
    ///   head response's pattern is `«initial»`.
    static func decode(_ head: JSONNode, pattern: InputPattern, at patternLocation: JSONNode.Location,
                       in decoding: ScriptDecoding) throws(ResponseFileError) -> HTTPHeadAnswer? {
        guard case .bool(let flag) = head.kind else {
            throw decoding.error(.wrongType(path: "\(decoding.path).head", expected: "true or false", found: head.typeName), at: head.location)
        }
        guard flag else { return nil }
        if pattern.isInitial {
            throw decoding.error(.invalidValue(path: "\(decoding.path).pattern",
                                               reason: "a \"head\": true response answers request heads, so it cannot be «initial»"),
                                 at: patternLocation)
        }
        return HTTPHeadAnswer()
    }
}
