import MockServerCore
/// A named substitution every script has, usable in response text as `$name` or `${name}`.
/// Protocols add their own (FTP's `$pasv` and `$epsv`): see ``ScriptProtocolVariable``.
package enum ScriptVariable: String, Sendable, CaseIterable {
    /// The server's numeric address, such as `127.0.0.1`.
    case address
    /// The server's display name (``MockServer/Configuration/serverName``).
    case server
    /// The main listener's port.
    case port
    /// The name of the selected file (see ``ScriptCommand/selectFile(_:otherwise:strict:)``), or empty.
    case file
    /// The byte count of the selected file, or of the server's ``MockServer/data``.
    case size
    /// The current time as an RFC 1123 date in GMT, such as `Sun, 06 Nov 1994 08:49:37 GMT`.
    case date
}
