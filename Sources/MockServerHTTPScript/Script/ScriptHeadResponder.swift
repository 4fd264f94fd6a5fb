import MockServerCore
import MockServerHTTP
import MockServerScript

/// A ``MockServerScript/ScriptResponder`` that can answer the head of an HTTP request whose client
/// waits for `100 Continue` before sending the body. ``MockServerScript/PatternResponder`` is one
/// (its `"head": true` responses); a responder that is not lets every waiting client go on.
package protocol ScriptHeadResponder: ScriptResponder {
    /// The answer to the head of a request whose client waits for `100 Continue`, or `nil` to
    /// send `100 Continue` and await the body.
    ///
    /// An answer without `«continue»` ends the exchange: the body is not awaited, and once the
    /// answer is sent the server stops sending and closes when the client does.
    func respond(toHead head: InputUnit, session: inout ScriptSession, context: SubstitutionContext) -> ScriptReply?
}

extension PatternResponder: ScriptHeadResponder {
    /// The first matching `"head": true` response (``HTTPHeadAnswer``) of the connection's set;
    /// `nil` when none matches (HTTP then sends `100 Continue`).
    package func respond(toHead head: InputUnit, session: inout ScriptSession, context: SubstitutionContext) -> ScriptReply? {
        respond(toPart: head, answeredBy: HTTPHeadAnswer.self, session: &session)
    }
}
