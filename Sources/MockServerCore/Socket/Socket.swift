#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A non-blocking TCP socket: a file descriptor and the calls the server makes on it.
///
/// Every socket system call of the package is made here, in ``IOSelector`` or in ``Platform``.
/// A `Socket` does not close itself: its owner calls ``close()`` exactly once.
package struct Socket: Sendable, Hashable {
    /// The file descriptor.
    package let fd: Int32

    /// The outcome of a read.
    package enum ReadResult: Equatable {
        case bytes(Int)
        case wouldBlock
        case endOfFile
        case failed(SocketCallError)
    }

    /// The outcome of a write.
    package enum WriteResult: Equatable {
        case written(Int)
        case wouldBlock
        case failed(SocketCallError)
    }

    /// Creates a non-blocking socket listening on `address` (port 0 lets the system pick).
    ///
    /// - Throws: ``SocketCallError`` naming `socket`, `setsockopt`, `bind` or `listen` and the address.
    package static func listening(on address: NetworkAddress, backlog: Int32 = 1024) throws -> Socket {
        let fd = Platform.makeStreamSocket(family: address.isIPv6 ? AF_INET6 : AF_INET)
        guard fd >= 0 else { throw SocketCallError.last("socket", address.description) }
        let socket = Socket(fd: fd)
        do {
            try socket.setOption(SOL_SOCKET, SO_REUSEADDR, 1, address: address)
            if address.isIPv6 {
                try socket.setOption(Int32(IPPROTO_IPV6), IPV6_V6ONLY, 1, address: address)
            }
            let bound = address.withSockAddr { Platform.bind(fd, $0, $1) }
            guard bound == 0 else { throw SocketCallError.last("bind", address.description) }
            guard Platform.listen(fd, backlog) == 0 else { throw SocketCallError.last("listen", address.description) }
        } catch {
            socket.close()
            throw error
        }
        return socket
    }

    /// Starts a non-blocking connection to `address`; it completes when the socket is writable,
    /// and ``pendingError()`` then says whether it succeeded.
    ///
    /// - Throws: ``SocketCallError`` naming `socket` or `connect` and the address.
    package static func connecting(to address: NetworkAddress) throws -> Socket {
        let fd = Platform.makeStreamSocket(family: address.isIPv6 ? AF_INET6 : AF_INET)
        guard fd >= 0 else { throw SocketCallError.last("socket", address.description) }
        let socket = Socket(fd: fd)
        let result = address.withSockAddr { pointer, length in Syscall.retrying { Platform.connect(fd, pointer, length) } }
        guard result == 0 || errno == EINPROGRESS else {
            let error = SocketCallError.last("connect", address.description)
            socket.close()
            throw error
        }
        return socket
    }

    /// The error a non-blocking `connect` ended with, or `nil` when it succeeded.
    package func pendingError(address: NetworkAddress) -> SocketCallError? {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else { return .last("getsockopt", address.description) }
        return code == 0 ? nil : SocketCallError(call: "connect", address: address.description, code: code)
    }

    /// The address the socket is bound to.
    package var localAddress: NetworkAddress? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return result == 0 ? NetworkAddress(storage: storage) : nil
    }

    /// The address of the connected peer.
    package var peerAddress: NetworkAddress? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
        }
        return result == 0 ? NetworkAddress(storage: storage) : nil
    }

    /// Accepts one pending connection as a non-blocking socket, or returns `nil` when none is pending.
    ///
    /// - Throws: ``SocketCallError`` for failures other than "nothing pending" or "aborted by the peer".
    package func accept() throws -> Socket? {
        let client = Syscall.retrying { Platform.acceptNonBlocking(fd) }
        if client >= 0 { return Socket(fd: client) }
        switch errno {
        case EAGAIN, EWOULDBLOCK, ECONNABORTED, EPROTO: return nil
        default: throw SocketCallError.last("accept", localAddress?.description ?? "")
        }
    }

    /// Whether a listening socket may have a connection to accept, asked with `poll(2)` without
    /// waiting (`true` also when the question fails, so that ``accept()`` finds out). Linux makes
    /// and frees a socket, a file and an inode for an `accept` that finds nothing (about 9 µs on
    /// loopback), where a `poll` makes nothing.
    package var hasPendingConnection: Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return Syscall.retrying { poll(&descriptor, 1, 0) } != 0
    }

    /// Reads into `buffer`.
    package func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        // recv(2), not read(2): on Linux a socket's read goes through the file layer first
        // (vfs_read, fdget_pos), about 2% of the server's perf samples for a small HTTP/1.1 answer
        // at 64 connections (perf, session 29); nginx reads with recv too.
        let count = Syscall.retrying { Platform.receive(fd, buffer.baseAddress, buffer.count) }
        if count > 0 { return .bytes(count) }
        if count == 0 { return .endOfFile }
        if errno == EAGAIN || errno == EWOULDBLOCK { return .wouldBlock }
        return .failed(.last("recv"))
    }

    /// Writes from `buffer` without raising `SIGPIPE` when the peer has gone.
    package func write(_ buffer: UnsafeRawBufferPointer) -> WriteResult {
        let count = Syscall.retrying { Platform.sendNoSignal(fd, buffer.baseAddress, buffer.count) }
        if count >= 0 { return .written(count) }
        if errno == EAGAIN || errno == EWOULDBLOCK { return .wouldBlock }
        return .failed(.last("send"))
    }

    /// Data bytes written but not yet acknowledged by the peer's TCP, or `nil` when the system cannot
    /// say. Our FIN is no data: after ``shutdownWrite()``, 0 means the peer has every byte, whether
    /// or not it has acknowledged the FIN yet (which it may delay until it closes).
    package var unacknowledgedBytes: Int? { Platform.unacknowledgedBytes(fd) }

    /// Turns off Nagle's algorithm so that small replies leave at once.
    package func setNoDelay() {
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        Platform.disableSigPipe(fd)
    }

    /// Stops sending (a FIN) while the socket keeps reading.
    package func shutdownWrite() {
        _ = Platform.shutdown(fd, Int32(Platform.shutWrite))
    }

    /// Closes the socket with an RST instead of a FIN (`SO_LINGER` with a zero timeout).
    package func reset() {
        var option = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        close()
    }

    /// Closes the file descriptor.
    package func close() {
        _ = Platform.close(fd)
    }

    private func setOption(_ level: Int32, _ name: Int32, _ value: Int32, address: NetworkAddress) throws {
        var value = value
        guard setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw SocketCallError.last("setsockopt", address.description)
        }
    }
}
