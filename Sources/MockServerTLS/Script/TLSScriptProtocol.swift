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
    package let name = "TLS"
    package let schemes: Set<String> = []
    package let framings: Set<Framing> = [.lines, .raw]
    package let tokens = ["«starttls»"]
    package let keys = ["starttls", "requireTLS"]
    package let servesEveryScheme = true

    /// Creates TLS's vocabulary.
    package init() {}

    package func companionKeys(of key: String) -> [String] { key == "starttls" ? ["otherwise"] : [] }

    package func command(token: String, in decoding: ScriptDecoding) throws(ResponseFileError) -> ScriptCommand {
        .command(StartTLSCommand())
    }

    package func command(key: String, object: ScriptDecoding.CommandObject, in decoding: ScriptDecoding) throws(ResponseFileError) -> ScriptCommand {
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
