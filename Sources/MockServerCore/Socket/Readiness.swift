/// What the selector reported for one file descriptor.
package struct Readiness: Sendable {
    /// Data, the end of the stream or an error can be read.
    package var readable: Bool
    /// Bytes can be written, or an error is pending.
    package var writable: Bool
    /// The connection is broken or closed in both directions (`EPOLLERR`/`EPOLLHUP`, `EV_ERROR`/`EV_EOF` on a write filter).
    package var failed: Bool = false

    /// Readiness as given (a transport that wraps another reports its own).
    package init(readable: Bool, writable: Bool, failed: Bool = false) {
        self.readable = readable
        self.writable = writable
        self.failed = failed
    }
}
