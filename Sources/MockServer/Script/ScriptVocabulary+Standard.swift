import MockServerFTP
import MockServerHTTP
import MockServerHTTPScript
import MockServerScript
import MockServerTLS
import MockServerWebDAV
import MockServerWebSocketScript

extension ScriptVocabulary {
    /// The protocols MockServer speaks: FTP (and scripts without a scheme), HTTP, WebDAV, WebSocket,
    /// SMTP, IMAP and POP3 (lines, with the shared commands), and TLS's `«starttls»`. Response files
    /// load with it unless told otherwise.
    public static let standard = ScriptVocabulary([FTPScriptProtocol(), HTTPScriptProtocol(), WebDAVScriptProtocol(), WebSocketScriptProtocol(),
                                                   LineScriptProtocol(name: "SMTP", tlsForms: ["smtp": "smtps"]),
                                                   LineScriptProtocol(name: "IMAP", tlsForms: ["imap": "imaps"]),
                                                   LineScriptProtocol(name: "POP3", tlsForms: ["pop3": "pop3s"]),
                                                   TLSScriptProtocol()])
}
