#if canImport(Darwin)
import Darwin

/// Darwin spellings of the calls and constants that differ from Linux's.
package enum Platform {
    /// `SOCK_STREAM` as `addrinfo.ai_socktype` takes it.
    package static let streamSocketType = SOCK_STREAM
    package static let shutWrite = Int32(SHUT_WR)

    package static func makeStreamSocket(family: Int32) -> Int32 {
        let fd = socket(family, SOCK_STREAM, 0)
        if fd >= 0 { configure(fd) }
        return fd
    }

    package static func acceptNonBlocking(_ fd: Int32) -> Int32 {
        let client = accept(fd, nil, nil)
        if client >= 0 { configure(client) }
        return client
    }

    package static func sendNoSignal(_ fd: Int32, _ pointer: UnsafeRawPointer?, _ count: Int) -> Int {
        send(fd, pointer, count, 0)
    }

    /// Bytes not yet sent (`SO_NWRITE`; Darwin does not report unacknowledged ones), or `nil`.
    package static func unacknowledgedBytes(_ fd: Int32) -> Int? {
        var count: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(fd, SOL_SOCKET, SO_NWRITE, &count, &length) == 0 ? Int(count) : nil
    }

    /// Darwin has no `MSG_NOSIGNAL`: the socket option does the same for every send.
    package static func disableSigPipe(_ fd: Int32) {
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    private static func configure(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        disableSigPipe(fd)
    }

    @inline(__always) static func bind(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 { Darwin.bind(fd, address, length) }
    @inline(__always) static func connect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 { Darwin.connect(fd, address, length) }
    @inline(__always) static func listen(_ fd: Int32, _ backlog: Int32) -> Int32 { Darwin.listen(fd, backlog) }
    @inline(__always) static func receive(_ fd: Int32, _ pointer: UnsafeMutableRawPointer?, _ count: Int) -> Int { Darwin.recv(fd, pointer, count, 0) }
    @inline(__always) static func shutdown(_ fd: Int32, _ how: Int32) -> Int32 { Darwin.shutdown(fd, how) }
    @inline(__always) static func close(_ fd: Int32) -> Int32 { Darwin.close(fd) }
}
#endif
