#if canImport(Glibc)
import Glibc
import CMockServerLinux

/// Linux spellings of the calls and constants that differ from Darwin's.
package enum Platform {
    package static let shutWrite = Int32(SHUT_WR)
    /// `SOCK_STREAM` as `addrinfo.ai_socktype` takes it.
    package static let streamSocketType = Int32(SOCK_STREAM.rawValue)

    package static func makeStreamSocket(family: Int32) -> Int32 {
        socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    }

    package static func acceptNonBlocking(_ fd: Int32) -> Int32 {
        CMockServer_accept4(fd, nil, nil, Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
    }

    package static func sendNoSignal(_ fd: Int32, _ pointer: UnsafeRawPointer?, _ count: Int) -> Int {
        send(fd, pointer, count, Int32(MSG_NOSIGNAL))
    }

    /// Data bytes sent but not yet acknowledged by the peer (the FIN not counted), or `nil` when the
    /// system cannot say.
    package static func unacknowledgedBytes(_ fd: Int32) -> Int? {
        let count = CMockServer_unacknowledged(fd)
        return count >= 0 ? Int(count) : nil
    }

    /// Linux has `MSG_NOSIGNAL` on every send instead.
    package static func disableSigPipe(_ fd: Int32) {}

    @inline(__always) static func bind(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 { Glibc.bind(fd, address, length) }
    @inline(__always) static func connect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 { Glibc.connect(fd, address, length) }
    @inline(__always) static func listen(_ fd: Int32, _ backlog: Int32) -> Int32 { Glibc.listen(fd, backlog) }
    @inline(__always) static func receive(_ fd: Int32, _ pointer: UnsafeMutableRawPointer?, _ count: Int) -> Int { Glibc.recv(fd, pointer, count, 0) }
    @inline(__always) static func shutdown(_ fd: Int32, _ how: Int32) -> Int32 { Glibc.shutdown(fd, how) }
    @inline(__always) static func close(_ fd: Int32) -> Int32 { Glibc.close(fd) }
}
#endif
