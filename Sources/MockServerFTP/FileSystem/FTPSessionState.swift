/// What one FTP session remembers between commands for `«ftp»`.
package struct FTPSessionState: Sendable, Equatable {
    /// The working directory, a folder path ending in `/`.
    package var directory = "/"
    /// The path `RNFR` named, waiting for `RNTO`.
    package var renameFrom: String?
    /// The offset `REST` set for the next `RETR` or `STOR`.
    package var restartOffset = 0

    package init() {}
}
