@_spi(HotPath) import MockServerCore
import MockServerScript

/// What the script glue keeps for one HTTP connection, in its ``MockServerCore/ConnectionStates``:
/// the script's storage (its response set, a protocol's state) and the substitution values of its
/// replies, which each reply updates in place rather than copying the whole context.
///
/// `Sendable`: ``context`` is read and written only inside `withLock`, under its mutex.
package final class ScriptHTTPConnection: Sendable {
    /// The script's storage for the connection.
    package let storage: ScriptConnectionStorage
    /// The substitution values: the responder's base, from the first reply on, with the last
    /// reply's data and protocols' variables, which each reply sets again
    /// (``MockServerScript/ScriptServer/serverResponder(updating:)``).
    private let context = Locked<SubstitutionContext?>(nil)

    /// The glue's state for the connection numbered `connectionID`.
    package init(connectionID: Int) {
        storage = ScriptConnectionStorage(connectionID: connectionID)
    }

    /// `server`'s responder for one reply, read together with the data and the protocols'
    /// variables, which go into this connection's values (made from `base` at its first reply).
    func serverResponder(of server: any ScriptServer, base: SubstitutionContext) -> ServerResponder {
        context.withLock { context in
            if case .none = context { context = base }
            return server.serverResponder(updating: &context!)
        }
    }

    /// A copy of the substitution values as the last reply read them (``serverResponder(of:base:)``),
    /// for a reply that reads them: a responder of one's own, a reply worked out per request.
    var values: SubstitutionContext? {
        context.withLock { $0 }
    }
}
