import MockServerCore

/// A server's responder as a driver reads it for each reply: the responder, and the script's
/// ``PatternResponder`` when it is one, found once when the responder is set
/// (``ScriptServer/serverResponder(updating:)``) rather than by a dynamic cast at every reply
/// (about 900 instructions an HTTP request). A class, so that handing it out copies a reference.
package final class ServerResponder: Sendable {
    /// The responder.
    package let responder: any ScriptResponder
    /// ``responder`` when it is a script's ``PatternResponder`` (an empty one otherwise). Private,
    /// and used in place by the members below: a read from another module copies the whole
    /// responder (about 540 instructions), and so does a call through an optional (`patterns?.…`),
    /// hence no optional.
    private let patterns: PatternResponder
    /// Whether ``responder`` is a script's ``PatternResponder``, which chooses a reply without
    /// substitution values (``respond(to:session:)``).
    package let isPatternResponder: Bool

    /// `responder`, and whether it is a ``PatternResponder``.
    package init(_ responder: any ScriptResponder) {
        self.responder = responder
        if let patterns = responder as? PatternResponder {
            self.patterns = patterns
            self.isPatternResponder = true
        } else {
            self.patterns = PatternResponder([])
            self.isPatternResponder = false
        }
    }

    /// The ``PatternResponder``'s reply to `input`, chosen without substitution values; `nil` when
    /// nothing matches or the responder is not a ``PatternResponder``.
    package func respond(to input: InputUnit, session: inout ScriptSession) -> ScriptReply? {
        isPatternResponder ? patterns.respond(to: input, session: &session) : nil
    }

    /// The ``PatternResponder``'s choice for `input` (``PatternResponder/choose(_:session:)``):
    /// an entry's steps worked out in advance, or its reply; `nil` when nothing matches or the
    /// responder is not a ``PatternResponder``.
    package func choose(_ input: InputUnit, session: inout ScriptSession) -> ScriptChoice? {
        isPatternResponder ? patterns.choose(input, session: &session) : nil
    }

    /// The ``PatternResponder``'s reply to `part` (``PatternResponder/respond(toPart:answeredBy:session:)``);
    /// `nil` when nothing matches or the responder is not a ``PatternResponder``.
    package func respond<Trait: PartialInputAnswer>(toPart part: InputUnit, answeredBy trait: Trait.Type, session: inout ScriptSession) -> ScriptReply? {
        isPatternResponder ? patterns.respond(toPart: part, answeredBy: trait, session: &session) : nil
    }
}
