import MockServerCore
import MockServerScript

/// `{"requireTLS": ["530 …\r\n"]}`: on a server that requires TLS (``TLSSettings/requireTLS``,
/// `mockserver --tls-required`), a connection still in plain text gets these commands instead of the
/// rest of the reply, as vsftpd's `force_local_logins_ssl` answers a login before `AUTH TLS`; on an
/// encrypted connection, or a server that does not require TLS, the reply goes on.
package struct RequireTLSCommand: ProtocolCommand {
    /// What a plain-text connection gets instead of the rest of the reply.
    package let refusal: [ScriptCommand]

    /// Creates the command: `refusal` for plain-text connections to a server that requires TLS.
    package init(refusal: [ScriptCommand]) {
        self.refusal = refusal
    }

    package func run(_ match: ScriptRun.Match, in run: ScriptRun) -> ScriptRun.Outcome<LineWork> {
        let refusal = self.refusal
        return .continue([.output(LineWork { connection in
            guard let context = connection.loop.existingAttachment(TLSContext.self), context.configuration.requireTLS,
                  connection.tlsSessionTag == nil else { return .continue([]) }
            connection.log(.info, "refused in plain text: the server requires TLS")
            return .instead(run.steps(for: refusal, match: match))
        })])
    }
}
