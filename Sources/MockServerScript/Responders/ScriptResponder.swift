import MockServerCore
/// Decides what the server sends. A responder never touches a socket.
///
/// The server calls a responder on its event-loop thread, one connection's inputs in order, so an
/// implementation must return quickly and must not block: pauses are steps
/// that the server times without holding a thread.
public protocol ScriptResponder: Sendable {
    /// The steps to take when a connection opens (a banner, for instance).
    func connected(session: inout ScriptSession, context: SubstitutionContext) -> ScriptReply?

    /// How the input of a new connection is cut into units.
    var framing: Framing { get }

    /// The reply to one input unit, or `nil` when the responder has no answer for it.
    ///
    /// The server records an unanswered input as unmatched and closes the connection.
    func respond(to input: InputUnit, session: inout ScriptSession, context: SubstitutionContext) -> ScriptReply?

    /// The script behind this responder, whose `data`, `files` and `scheme` a server starts with;
    /// `nil` (the default) for a responder written in code.
    var responseScript: ResponseScript? { get }

    /// The same responder with new connections starting on the set `name`, or `nil` (the default)
    /// when it has no sets.
    ///
    /// - Throws: ``ResponseFileError`` when the set does not exist or names a missing response.
    func usingResponseSet(_ name: String) throws -> (any ScriptResponder)?
}

extension ScriptResponder {
    /// Lines by default.
    public var framing: Framing { .lines }

    /// By default, nothing is sent on connect.
    public func connected(session: inout ScriptSession, context: SubstitutionContext) -> ScriptReply? { nil }

    /// By default, no script.
    public var responseScript: ResponseScript? { nil }

    /// By default, no sets to switch between.
    public func usingResponseSet(_ name: String) throws -> (any ScriptResponder)? { nil }
}
