import MockServerCore
import MockServerScript

/// FTP's script commands: data connections, transfers, data-channel faults, and `«ftp»`.
package enum FTPScriptCommand: ProtocolCommand {
    /// Opens this connection's own passive-data listener; later `$pasv`, `$epsv` and `$dataport`
    /// in this connection name it (`«passive»`).
    case openPassive
    /// Active mode: the data connection will be made to the address of a `PORT` or `EPRT`
    /// argument, which must be the control connection's own peer address; otherwise `otherwise`
    /// (or a 504 reply) runs instead of the rest of the response (`{"active": "$1"}`).
    case connectActive(ResponseTemplate, otherwise: [ScriptCommand]?)
    /// Runs a transfer on this connection's data channel and continues only when it is finished
    /// (`«download»`, `«download-partial»`, `«upload»`, `«list»`, `«nlst»`).
    case transfer(FTPTransfer)
    /// Answers the command line as an FTP server over the server's files (`«ftp»`): a working
    /// directory per session, listings, sizes and times, transfers with `REST`, and changes that
    /// stick (`STOR`, `APPE`, `MKD`, `RMD`, `DELE`, `RNFR`/`RNTO`).
    case ftp
    /// Refuses this connection's next data connection (`«refuse-data»`): the passive listener is
    /// closed at once, so a client connecting to it is refused, an early data connection is dropped,
    /// and an active-mode transfer does not connect; the transfer then answers
    /// `425 Can't open data connection.` instead of the rest of its response.
    case refuseData
    /// Holds back this connection's next data transfer for the duration (`{"delay-data": seconds}`):
    /// a passive connection is accepted but carries nothing, and an active one is made, only then.
    case delayData(Duration)
    /// Sets the protection of this connection's later data connections (`{"protect": "$1"}`, FTPS's
    /// `PROT`): `P` (private) makes each of them TLS, the server's side of the handshake first,
    /// with the server's TLS identity; `C` (clear) makes them plain again. Other levels, or `P` on
    /// a server without a TLS identity, run `otherwise` (or nothing, logged) instead of the rest.
    case protect(ResponseTemplate, otherwise: [ScriptCommand]?)

    /// Every one works on the control connection, whose line driver carries it out.
    package func run(_ match: ScriptRun.Match, in reply: ScriptRun) -> ScriptRun.Outcome<LineWork> {
        .continue([.output(LineWork { stream in run(match, in: reply, on: FTPControlConnection.of(stream, reply: reply)) })])
    }

    /// Carries the command out on the control connection's FTP state.
    private func run(_ match: ScriptRun.Match, in reply: ScriptRun, on control: FTPControlConnection) -> ScriptRun.Outcome<LineWork> {
        switch self {
        case .openPassive:
            return control.openPassive(host: reply.values.address)
        case .connectActive(let template, let otherwise):
            return control.connectActive(reply.text(template, match: match)) {
                otherwise.map { reply.steps(for: $0, match: match) }
            }
        case .transfer(let transfer):
            return control.transfer(transfer, reply: reply)
        case .ftp:
            return control.answer(match.input.text, reply: reply)
        case .refuseData:
            return control.refuseNextDataConnection()
        case .delayData(let duration):
            return control.delayNextTransfer(by: duration)
        case .protect(let level, let otherwise):
            return control.protect(reply.text(level, match: match)) {
                otherwise.map { reply.steps(for: $0, match: match) }
            }
        }
    }
}

extension ScriptCommand {
    /// Opens this connection's own passive-data listener (`«passive»`).
    public static var openPassive: ScriptCommand { .command(FTPScriptCommand.openPassive) }
    /// Makes the data connection go to a `PORT`/`EPRT` address (`{"active": "$1"}`).
    public static func connectActive(_ address: ResponseTemplate, otherwise: [ScriptCommand]? = nil) -> ScriptCommand {
        .command(FTPScriptCommand.connectActive(address, otherwise: otherwise))
    }
    /// Runs a transfer on the data channel (`«download»`, `«upload»`, `«list»`, …).
    package static func transfer(_ transfer: FTPTransfer) -> ScriptCommand { .command(FTPScriptCommand.transfer(transfer)) }
    /// Answers the command as an FTP server over the server's files (`«ftp»`).
    public static var ftp: ScriptCommand { .command(FTPScriptCommand.ftp) }
}
