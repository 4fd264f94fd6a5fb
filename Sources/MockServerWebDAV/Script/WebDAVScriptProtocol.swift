import MockServerCore
import MockServerHTTP
import MockServerHTTPScript
import MockServerScript

/// WebDAV's part of the script language: `«propfind»` and `«webdav»`, in any script that frames
/// whole requests (`scheme` `webdav`, `http` and their kin).
package struct WebDAVScriptProtocol: ScriptProtocol {
    package let name = "WebDAV"
    package let schemes: Set<String> = ["webdav", "webdavs", "dav", "davs"]
    /// A WebDAV script may use HTTP's commands (`{"response": …}`): WebDAV extends HTTP.
    package let extendedProtocols = ["HTTP"]
    package let framing = Framing.requests
    /// HTTP's framings.
    package let framings: Set<Framing> = [.requests, .lines, .raw]
    package let tokens = ["«propfind»", "«webdav»"]

    /// Creates WebDAV's vocabulary.
    package init() {}

    /// HTTP's connections: WebDAV is HTTP with more methods.
    package func connections(framing: Framing) -> ScriptConnections {
        HTTPScriptProtocol().connections(framing: framing)
    }

    /// `webdavs` and `davs` for `webdav` and `dav` under implicit TLS.
    package func urlScheme(for scheme: String, implicitTLS: Bool) -> String {
        implicitTLS && (scheme == "webdav" || scheme == "dav") ? scheme + "s" : scheme
    }

    package func command(token: String, in decoding: ScriptDecoding) throws(ResponseFileError) -> ScriptCommand {
        token == "«propfind»" ? .propfind : .webdav
    }
}
