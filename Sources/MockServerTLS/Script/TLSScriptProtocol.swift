import MockServerCore
import MockServerScript

/// TLS's part of the script language: `«starttls»`, `{"starttls": …, "otherwise": […]}` and
/// `{"requireTLS": […]}`, in every
/// line script (FTP's `AUTH TLS`, SMTP's, IMAP's and POP3's `STARTTLS`), on a server that has a TLS
/// identity.
///
/// ```json
/// "auth": { "pattern": "^AUTH (TLS|SSL)", "commands": [{"starttls": "234 AUTH $1 successful\r\n", "otherwise": ["534 TLS is not available\r\n"]}] }
/// ```
package struct TLSScriptProtocol: ScriptProtocol {
    public let name = "TLS"
    public let schemes: Set<String> = []
    public let framings: Set<Framing> = [.lines, .raw]
    public let tokens = ["«starttls»"]
    public let keys = ["starttls", "requireTLS"]
    public let servesEveryScheme = true

    /// Creates TLS's vocabulary.
    public init() {}

    public func companionKeys(of key: String) -> [String] { key == "starttls" ? ["otherwise"] : [] }

    public func command(token: String, in decoding: ScriptDecoding) throws(ResponseFileError) -> ScriptCommand {
        .command(StartTLSCommand())
    }

    public func command(key: String, object: ScriptCommandObject, in decoding: ScriptDecoding) throws(ResponseFileError) -> ScriptCommand {
        if key == "requireTLS" {
            return .command(RequireTLSCommand(refusal: try decoding.commands(object.command.value, path: "\(decoding.path).requireTLS")))
        }
        let text = try decoding.string(object.command.value, path: "\(decoding.path).\(key)")
        let otherwise = try object.companion("otherwise").map { value throws(ResponseFileError) in
            try decoding.commands(value, path: "\(decoding.path).otherwise")
        }
        return .command(StartTLSCommand(reply: ResponseTemplate(text), otherwise: otherwise))
    }
}
