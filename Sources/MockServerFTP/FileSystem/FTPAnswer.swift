/// What `«ftp»` does for one command.
package enum FTPAnswer: Equatable {
    /// Sends this reply (CRLF-terminated, maybe several lines).
    case reply(String)
    /// Sends `preliminary`, then `bytes` on the data connection, then `final` once the client has
    /// them.
    case download(preliminary: String, bytes: [UInt8], final: String)
    /// Sends `preliminary`, receives the data connection's bytes into the file at `path` (from
    /// `offset`: 0 replaces the file, its size appends), then sends `final`.
    case upload(preliminary: String, path: String, offset: Int, final: String)
}
