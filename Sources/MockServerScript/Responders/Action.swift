import MockServerCore
/// A resolved step for a connection to carry out: what a ``Responder`` returns.
public enum Action: Sendable, Hashable {
    /// Writes bytes.
    case send([UInt8])
    /// Writes a template, rendered when it is sent.
    case render(Rendering)
    /// Writes the selected file's bytes, or the server's data.
    case sendData
    /// Waits before the next action.
    case pause(Duration)
    /// Closes the connection once everything before it has been sent.
    case close
    /// Switches this connection to the named response set.
    case useSet(String)
    /// Selects a file by name; runs `otherwise` instead of the rest when the server has files and not this one.
    case selectFile(Rendering, otherwise: [Action]?, strict: Bool)
    /// Opens this connection's passive-data listener.
    case openPassive
    /// Makes the data connection go to a `PORT`/`EPRT` address; runs `otherwise` (or a 504) when refused.
    case connectActive(Rendering, otherwise: [Action]?)
    /// Runs a transfer on the data channel, continuing when it is finished.
    case transfer(Transfer)
    /// A fault on demand.
    case fault(Fault)
    /// Stores the request body as a server file named by the rendering, recording an upload.
    case saveBody(Rendering)
    /// Sends `HTTP/1.1 100 Continue` to a client waiting with a request head, and awaits the body.
    case continueRequest
    /// Sends a WebDAV listing of the server's files for this `PROPFIND` request (207, or 404).
    case propfind(InputUnit)
    /// Answers this request as a WebDAV server over the server's files.
    case webdav(InputUnit)
    /// Answers this FTP command as an FTP server over the server's files.
    case ftp(InputUnit)
    /// Creates an empty folder; runs `otherwise` instead of the rest when something is there.
    case makeFolder(Rendering, otherwise: [Action]?)
    /// Deletes a file or a folder; runs `otherwise` instead of the rest when nothing is there.
    case deleteFile(Rendering, otherwise: [Action]?)
    /// Copies or moves a file or a folder; runs `otherwise` instead of the rest when the source is missing.
    case copyFile(Rendering, to: Rendering, move: Bool, otherwise: [Action]?)
}
