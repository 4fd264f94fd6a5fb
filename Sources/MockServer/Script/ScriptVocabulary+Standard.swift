import MockServerFTP
import MockServerHTTP
import MockServerScript
import MockServerTLS
import MockServerWebDAV
import MockServerWebSocket

extension ScriptVocabulary {
    /// The protocols MockServer speaks: FTP, HTTP, WebDAV, WebSocket, and TLS's `«starttls»`. Response
    /// files load with it unless told otherwise.
    public static let standard = ScriptVocabulary([FTPScriptProtocol(), HTTPScriptProtocol(), WebDAVScriptProtocol(), WebSocketScriptProtocol(),
                                                   TLSScriptProtocol()])
}
