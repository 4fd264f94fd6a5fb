import MockServerCore
/// A named substitution usable in response text as `$name` or `${name}`.
public enum ScriptVariable: String, Sendable, CaseIterable {
    /// The server's numeric address, such as `127.0.0.1`.
    case address
    /// The server's display name (``MockServer/Configuration/serverName``).
    case server
    /// The main listener's port.
    case port
    /// The passive-data listener as FTP's `h1,h2,h3,h4,p1,p2`: this connection's own after `«passive»`.
    case pasv
    /// The passive-data listener's port: this connection's own after `«passive»`, else the server's.
    case dataPort = "dataport"
    /// The passive-data listener as EPSV's `|||port|`.
    case epsv
    /// The name of the selected file (see ``ScriptCommand/selectFile(_:otherwise:strict:)``), or empty.
    case file
    /// The byte count of the selected file, or of the server's ``MockServer/data``.
    case size
    /// The current time as an RFC 1123 date in GMT, such as `Sun, 06 Nov 1994 08:49:37 GMT`.
    case date
}
