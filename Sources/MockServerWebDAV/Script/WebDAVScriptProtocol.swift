import MockServerCore
import MockServerScript

/// WebDAV's part of the script language: `«propfind»` and `«webdav»`, in any script that frames
/// whole requests (`scheme` `webdav`, `http` and their kin).
public struct WebDAVScriptProtocol: ScriptProtocol {
    public let name = "WebDAV"
    public let schemes: Set<String> = ["webdav", "webdavs", "dav", "davs", "http", "https"]
    public let framing = Framing.requests
    public let tokens = ["«propfind»", "«webdav»"]

    /// Creates WebDAV's vocabulary.
    public init() {}

    public func command(token: String, in decoding: ScriptDecoding) throws(ResponseFileError) -> ScriptCommand {
        token == "«propfind»" ? .propfind : .webdav
    }
}
