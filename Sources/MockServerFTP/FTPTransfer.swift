import MockServerCore
/// What an FTP data connection carries, run by ``FTPScriptCommand/transfer(_:)``.
package enum FTPTransfer: String, Sendable, Hashable, CaseIterable {
    /// Sends the selected file (or the data) and waits until the client has it all (`«download»`).
    case download = "«download»"
    /// Sends half of the selected file, then resets the data connection (`«download-partial»`).
    case downloadPartial = "«download-partial»"
    /// Receives bytes until the client closes and records them as an upload of the selected name (`«upload»`).
    case upload = "«upload»"
    /// Sends a long listing (`ls -l` style) of the files, or the server's listing text (`«list»`).
    case list = "«list»"
    /// Sends the file names, one a line (`«nlst»`).
    case nameList = "«nlst»"
}
