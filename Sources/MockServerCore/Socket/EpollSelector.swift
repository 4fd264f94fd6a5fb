#if os(Linux)
import Glibc
import CMockServerLinux

/// Readiness notification with `epoll` (the Linux default), plus an `eventfd` that another thread
/// uses to wake the loop.
///
/// The value is only a pair of descriptors, so it is `Sendable`: the loop thread waits on it and
/// ``wakeUp()`` may be called from any thread until ``close()``.
package struct EpollSelector: Sendable {
    private let epoll: Int32
    private let wake: Int32
    /// How many events one wait reports at most: as many as fit in 1,024 bytes (85 on x86-64, 64
    /// where `epoll_event` is 16 bytes), the size up to which `withUnsafeTemporaryAllocation` is
    /// always on the stack. A larger buffer went to `malloc` and `free` on every wait (about 800
    /// instructions a proxied request at two waits each); more ready descriptors than this are
    /// reported by the next wait, at once.
    private static let capacity = max(1, 1_024 / MemoryLayout<epoll_event>.stride)

    /// Creates the epoll instance and its wake-up descriptor.
    package static func make() throws -> EpollSelector {
        let epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { throw SocketCallError.last("epoll_create1") }
        let wake = eventfd(0, Int32(EFD_CLOEXEC) | Int32(EFD_NONBLOCK))
        guard wake >= 0 else {
            let error = SocketCallError.last("eventfd")
            _ = Glibc.close(epoll)
            throw error
        }
        let selector = EpollSelector(epoll: epoll, wake: wake)
        do {
            try selector.control(EPOLL_CTL_ADD, wake, .read)
        } catch {
            selector.close()
            throw error
        }
        return selector
    }

    /// Starts watching `fd`.
    package func register(_ fd: Int32, interest: Interest) throws {
        try control(EPOLL_CTL_ADD, fd, interest)
    }

    /// Changes what `fd` is watched for.
    package func modify(_ fd: Int32, interest: Interest) throws {
        try control(EPOLL_CTL_MOD, fd, interest)
    }

    /// Stops watching `fd`; closing a descriptor does this too.
    package func deregister(_ fd: Int32) {
        var event = epoll_event()
        _ = epoll_ctl(epoll, EPOLL_CTL_DEL, fd, &event)
    }

    /// Waits up to `timeout` nanoseconds (forever when `nil`) and reports each ready descriptor.
    ///
    /// - Returns: whether ``wakeUp()`` was called since the last wait.
    @discardableResult
    package func wait(timeout: UInt64?, _ body: (Int32, Readiness) -> Void) throws -> Bool {
        let milliseconds: Int32 = timeout.map { Int32(clamping: ($0 + 999_999) / 1_000_000) } ?? -1
        return try withUnsafeTemporaryAllocation(of: epoll_event.self, capacity: Self.capacity) { events in
            let count = Syscall.retrying { epoll_wait(epoll, events.baseAddress, Int32(events.count), milliseconds) }
            guard count >= 0 else { throw SocketCallError.last("epoll_wait") }
            var woken = false
            for index in 0..<Int(count) {
                let event = events[index]
                let fd = event.data.fd
                if fd == wake {
                    var value: UInt64 = 0
                    _ = Glibc.read(wake, &value, 8)
                    woken = true
                    continue
                }
                let flags = event.events
                let failed = flags & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0
                body(fd, Readiness(readable: failed || flags & EPOLLIN.rawValue != 0,
                                   writable: failed || flags & EPOLLOUT.rawValue != 0,
                                   failed: failed))
            }
            return woken
        }
    }

    /// Wakes a thread blocked in ``wait(timeout:_:)``. Safe from any thread.
    package func wakeUp() {
        var one: UInt64 = 1
        _ = Glibc.write(wake, &one, 8)
    }

    /// Closes both descriptors.
    package func close() {
        _ = Glibc.close(wake)
        _ = Glibc.close(epoll)
    }

    private func control(_ operation: Int32, _ fd: Int32, _ interest: Interest) throws {
        var event = epoll_event()
        event.events = (interest.contains(.read) ? EPOLLIN.rawValue : 0) | (interest.contains(.write) ? EPOLLOUT.rawValue : 0)
        event.data.fd = fd
        guard epoll_ctl(epoll, operation, fd, &event) == 0 else { throw SocketCallError.last("epoll_ctl", "fd \(fd)") }
    }
}
#endif
