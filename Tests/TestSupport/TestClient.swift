#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A blocking TCP client for tests (shared by the test targets), with a receive timeout so that a broken server fails the test
/// instead of hanging it.
public final class TestClient {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public let fd: Int32
    private var buffer: [UInt8] = []
    private var isOpen = true

    /// Connects to `host:port`; every read gives up after `timeout` seconds.
    public init(port: UInt16, host: String = "127.0.0.1", timeout: Int = 10) throws {
        let isIPv6 = host.contains(":")
        // Close-on-exec: a program another test starts meanwhile (posix_spawn on Linux keeps every
        // other descriptor) must not keep this connection open after the test closes it.
        #if canImport(Glibc)
        let streamType = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        #else
        let streamType = SOCK_STREAM
        #endif
        fd = socket(isIPv6 ? AF_INET6 : AF_INET, streamType, 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        #if !canImport(Glibc)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        #endif
        var time = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var result: Int32
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            inet_pton(AF_INET6, host, &address.sin6_addr)
            result = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) } }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            inet_pton(AF_INET, host, &address.sin_addr)
            result = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw Failure(description: "connect to \(host):\(port): \(reason)")
        }
    }

    deinit { if isOpen { close(fd) } }

    /// Vanishes: closes with an RST (SO_LINGER 0), as a client that crashes or is killed does. The
    /// client must not be used afterwards.
    public func reset() {
        guard isOpen else { return }
        isOpen = false
        var linger = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
        close(fd)
    }

    /// Sends text as UTF-8.
    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Sends bytes.
    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc_send(fd, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw Failure(description: "send: \(String(cString: strerror(errno)))") }
            offset += written
        }
    }

    /// Reads one line, without its CRLF or LF (``readLine(sourceLocation:)``, which checks the thread first).
    func readLineHere() throws -> String {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                var line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                if line.last == 0x0D { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            guard try fill() else { throw Failure(description: "connection closed before a full line; got \(String(decoding: buffer, as: UTF8.self).debugDescription)") }
        }
    }

    /// Reads exactly `count` bytes (``read(count:sourceLocation:)``, which checks the thread first).
    func readHere(count: Int) throws -> [UInt8] {
        while buffer.count < count {
            guard try fill() else { throw Failure(description: "connection closed after \(buffer.count) of \(count) bytes") }
        }
        defer { buffer.removeSubrange(..<count) }
        return Array(buffer[..<count])
    }

    /// Reads until the server closes the connection and returns everything not yet read
    /// (``readToEnd(sourceLocation:)``, which checks the thread first).
    func readToEndHere() throws -> [UInt8] {
        while try fill() {}
        defer { buffer.removeAll() }
        return buffer
    }

    /// Shuts down the sending side.
    public func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            buffer.append(contentsOf: chunk[..<count])
            return true
        }
        if count == 0 { return false }
        // A signal (a child process's SIGCHLD) interrupted the wait: wait again.
        if errno == EINTR { return true }
        if errno == ECONNRESET { return false }
        throw Failure(description: errno == EAGAIN || errno == EWOULDBLOCK ? "timed out waiting for the server" : "recv: \(String(cString: strerror(errno)))")
    }
}

#if canImport(Glibc)
private func Glibc_send(_ fd: Int32, _ pointer: UnsafeRawPointer?, _ count: Int) -> Int { Glibc.send(fd, pointer, count, Int32(MSG_NOSIGNAL)) }
#else
private func Glibc_send(_ fd: Int32, _ pointer: UnsafeRawPointer?, _ count: Int) -> Int { Darwin.send(fd, pointer, count, 0) }
#endif
