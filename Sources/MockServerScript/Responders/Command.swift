import MockServerCore
/// One step of a scripted response, as written in a response file or in code.
public enum Command: Sendable, Hashable {
    /// Sends text after substitutions (see ``ResponseTemplate``).
    case send(ResponseTemplate)
    /// Sends bytes exactly as given.
    case sendBytes([UInt8])
    /// Sends the selected file's bytes, or the server's ``MockServer/data`` (`«data»` in a response file).
    case sendData
    /// Waits before the next command, without blocking any other connection.
    case pause(Duration)
    /// Closes the connection once everything before it has been sent (`«close»`).
    case close
    /// Switches this connection, and only this one, to another response set.
    case useSet(String)
    /// Selects the file named by the template for `$size`, `$file`, `«data»` and transfers. When
    /// the server has ``MockServer/files`` and none has this name (or, `strict`, whenever none has
    /// it), `otherwise` runs instead of the rest of the response (when given).
    case selectFile(ResponseTemplate, otherwise: [Command]?, strict: Bool = false)
    /// Opens this connection's own passive-data listener; later `$pasv`, `$epsv` and `$dataport`
    /// in this connection name it (`«passive»`).
    case openPassive
    /// Active mode: the data connection will be made to the address of an FTP `PORT` or `EPRT`
    /// argument, which must be the control connection's own peer address; otherwise `otherwise`
    /// (or a 504 reply) runs instead of the rest of the response.
    case connectActive(ResponseTemplate, otherwise: [Command]?)
    /// Runs a transfer on this connection's data channel and continues only when it is finished.
    case transfer(Transfer)
    /// Sends an HTTP response with a computed `Content-Length` (`{"response": {…}}`).
    case httpResponse(HTTPResponseTemplate)
    /// A fault on demand (`«reset»`, `«half-close»`, `«hang»`, `{"truncate": N}`, `{"dribble": rate}`).
    case fault(Fault)
    /// Stores the input's HTTP request body (de-chunked; the whole unit when it is not a request)
    /// as the server file named by the template, and records it as an upload (`{"save": "$path"}`).
    case saveBody(ResponseTemplate)
    /// Sends `HTTP/1.1 100 Continue` and lets the client send the body (`«continue»`); only in a
    /// response that answers request heads (``ResponseEntry/answersHead``).
    case continueRequest
    /// Answers a WebDAV `PROPFIND` with a `207 Multi-Status` listing of the server's files at the
    /// request's path and `Depth`, or 404 when nothing is there (`«propfind»`).
    case propfind
    /// Answers the request as a WebDAV server over the server's files (`«webdav»`): every method
    /// of RFC 4918 classes 1 and 2, with dead properties, locks, `If` headers, ranges and
    /// conditional requests; a `PUT` is kept as an upload too.
    case webdav
    /// Answers the FTP command line as an FTP server over the server's files (`«ftp»`): a working
    /// directory per session, listings, sizes and times, transfers with `REST`, and changes that
    /// stick (`STOR`, `APPE`, `MKD`, `RMD`, `DELE`, `RNFR`/`RNTO`).
    case ftp
    /// Creates an empty folder in the server's files (`{"mkdir": "$path"}`); when something is
    /// already there, `otherwise` runs instead of the rest of the response (when given).
    case makeFolder(ResponseTemplate, otherwise: [Command]?)
    /// Deletes a file, or a folder and everything in it, from the server's files
    /// (`{"delete": "$path"}`); when nothing is there, `otherwise` runs instead of the rest (when given).
    case deleteFile(ResponseTemplate, otherwise: [Command]?)
    /// Copies (or, `move`, moves) a file or a folder of the server's files to the path of the
    /// second template, an absolute URI or a path such as the `Destination` header
    /// (`{"copy": "$path", "to": "${header:Destination}"}`, `{"move": …}`); when the source is missing,
    /// `otherwise` runs instead of the rest of the response (when given).
    case copyFile(ResponseTemplate, to: ResponseTemplate, move: Bool, otherwise: [Command]?)
}
