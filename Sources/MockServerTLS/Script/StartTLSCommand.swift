import MockServerCore
import MockServerScript

/// `«starttls»`: once everything before it is written (the reply that says "go ahead"), the
/// connection is TLS, the server's side of the handshake first; what follows in the reply, and every
/// later reply, is encrypted. On a server without a TLS identity it is logged and skipped.
public struct StartTLSCommand: ProtocolCommand {
    /// Creates the command.
    public init() {}

    public func run(_ match: ScriptMatch, in reply: ScriptRun) -> ScriptOutcome {
        guard let stream = reply.stream else {
            reply.log(.warning, "«starttls» needs a connection of its own (a line script); skipped")
            return .continue([])
        }
        return .continue([.then {
            let connection = stream.value
            guard let context = connection.loop.existingAttachment(TLSContext.self) else {
                connection.log(.warning, "«starttls»: the server has no TLS identity (give it a TLSConfiguration, or run mockserver --starttls); skipped")
                return []
            }
            connection.insertSteps([.whenWritten { [unowned connection] in try? connection.startTLS(context: context) }])
            return []
        }])
    }
}
