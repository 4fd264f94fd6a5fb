import MockServerCore
import MockServerScript

/// TLS's part of the script language: `«starttls»`, in every line script (FTP's `AUTH TLS`, SMTP's,
/// IMAP's and POP3's `STARTTLS`), on a server that has a TLS identity.
///
/// ```json
/// "auth": { "pattern": "^AUTH (TLS|SSL)", "commands": ["234 AUTH TLS successful\r\n", "«starttls»"] }
/// ```
public struct TLSScriptProtocol: ScriptProtocol {
    public let name = "TLS"
    public let schemes: Set<String> = []
    public let framings: Set<Framing> = [.lines, .raw]
    public let tokens = ["«starttls»"]
    public let servesEveryScheme = true

    /// Creates TLS's vocabulary.
    public init() {}

    public func command(token: String, in decoding: ScriptDecoding) throws(ResponseFileError) -> ScriptCommand {
        .command(StartTLSCommand())
    }
}
