import MockServerFTP
import MockServerHTTP
import MockServerScript
import MockServerWebDAV

extension ScriptVocabulary {
    /// The protocols MockServer speaks: FTP, HTTP and WebDAV. Response files load with it unless
    /// told otherwise.
    public static let standard = ScriptVocabulary([FTPScriptProtocol(), HTTPScriptProtocol(), WebDAVScriptProtocol()])
}
