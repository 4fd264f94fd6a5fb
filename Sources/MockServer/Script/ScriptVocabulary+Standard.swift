import MockServerFTP
import MockServerHTTP
import MockServerHTTPScript
import MockServerScript
import MockServerTLS
import MockServerWebDAV
import MockServerWebSocketScript

extension ScriptVocabulary {
    /// The protocols MockServer speaks: FTP (and scripts without a scheme), HTTP, WebDAV, WebSocket,
    /// SMTP, IMAP and POP3 (lines, with the shared commands), TLS's `«starttls»`, and HTTP/2 (which
    /// serves HTTP's connections as ``MockServer.HTTP2ServerSettings`` say, and adds no command). Response files
    /// load with it unless told otherwise, and the server is composed of it.
    public static let standard = ScriptVocabulary([FTPScriptProtocol(), HTTPScriptProtocol(), WebDAVScriptProtocol(), WebSocketScriptProtocol(),
                                                   LineScriptProtocol(name: "SMTP", tlsForms: ["smtp": "smtps"]),
                                                   LineScriptProtocol(name: "IMAP", tlsForms: ["imap": "imaps"]),
                                                   LineScriptProtocol(name: "POP3", tlsForms: ["pop3": "pop3s"]),
                                                   TLSScriptProtocol(), HTTP2ServingProtocol()])
}
