import MockServerCore
import MockServerHTTP
import MockServerHTTPScript
import MockServerScript

/// WebDAV's script commands, answering over the server's files.
package enum WebDAVScriptCommand: ProtocolCommand {
    /// Answers a `PROPFIND` with a `207 Multi-Status` listing of the server's files at the request's
    /// path and `Depth`, or 404 when nothing is there (`«propfind»`): the WebDAV server's own
    /// `PROPFIND`, whatever the request's method, with the files' real times and the entity tags
    /// `GET` gives.
    case propfind
    /// Answers the request as a WebDAV server over the server's files (`«webdav»`): every method of
    /// RFC 4918 classes 1 and 2, with dead properties, locks, `If` headers, ranges and conditional
    /// requests; a `PUT` is kept as an upload too.
    case webdav

    package func run(_ match: ScriptRun.Match, in reply: ScriptRun) -> ScriptRun.Outcome<HTTPReplyOutput> {
        let values = reply.values
        guard let request = values.protocolValues[HTTPMockRequest.self] ?? HTTPMockRequest(parsing: match.input.bytes) else {
            let refusal = HTTPMockResponse(status: 400, headers: ["Content-Type": "text/plain"], body: Array("«\(self)» answers HTTP requests only\n".utf8))
            return .continue([.output(.response(refusal))])
        }
        let now = values.now()
        // One handler answers both: `«propfind»` is its PROPFIND, whatever the request's method, so
        // that a listing shows the files' own times and entity tags.
        let (response, stored) = reply.server.withFileStore { store in
            var handler = WebDAVHandler(request: request, files: store.files, times: store.times, state: store[WebDAVState.self, default: WebDAVState()], now: now)
            let response = self == .propfind ? handler.respond(as: "PROPFIND") : handler.respond()
            store.files = handler.files
            store.times = handler.times
            store[WebDAVState.self, default: WebDAVState()] = handler.state
            return (response, handler.stored)
        }
        if let stored { reply.server.recordUpload(name: stored.path, bytes: stored.bytes, connection: reply.connectionID) }
        return .continue([.output(.response(response))])
    }
}

extension ScriptCommand {
    /// Answers a `PROPFIND` with a listing of the server's files (`«propfind»`).
    public static var propfind: ScriptCommand { .command(WebDAVScriptCommand.propfind) }
    /// Answers the request as a WebDAV server over the server's files (`«webdav»`).
    public static var webdav: ScriptCommand { .command(WebDAVScriptCommand.webdav) }
}
