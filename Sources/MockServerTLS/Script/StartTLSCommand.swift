import MockServerCore
import MockServerScript

/// `«starttls»`: once everything before it is written (the reply that says "go ahead"), the
/// connection is TLS, the server's side of the handshake first; what follows in the reply, and every
/// later reply, is encrypted.
///
/// The object form, `{"starttls": "234 AUTH TLS successful\r\n", "otherwise": ["534 No TLS\r\n"]}`,
/// sends its text and begins TLS when the server has a TLS identity, and runs `otherwise` instead
/// when it has none. The bare token on a server without an identity is logged, and the connection
/// stays in plain text.
package struct StartTLSCommand: ProtocolCommand {
    /// What is sent before the handshake (the object form's text), if anything.
    package let reply: ResponseTemplate?
    /// What runs instead on a server without a TLS identity; `nil`: nothing (a warning is logged).
    package let otherwise: [ScriptCommand]?

    /// Creates the command: `reply` first, then TLS; `otherwise` when the server has no identity.
    package init(reply: ResponseTemplate? = nil, otherwise: [ScriptCommand]? = nil) {
        self.reply = reply
        self.otherwise = otherwise
    }

    package func run(_ match: ScriptRun.Match, in run: ScriptRun) -> ScriptRun.Outcome<LineWork> {
        let text = reply.map { run.render($0, match: match) }
        let otherwise = self.otherwise
        return .continue([.output(LineWork { connection in
            guard let context = connection.loop.existingAttachment(TLSContext.self) else {
                guard let otherwise else {
                    connection.log(.warning, "«starttls»: the server has no TLS identity (give it a TLSSettings, or run mockserver --starttls); the connection stays in plain text")
                    return .continue([])
                }
                return .continue(run.steps(for: otherwise, match: match))
            }
            connection.insertSteps([.whenWritten { [unowned connection] in try? connection.startTLS(context: context) }])
            return .continue(text.map { [.send($0)] } ?? [])
        })])
    }
}
