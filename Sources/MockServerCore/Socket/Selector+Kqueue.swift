#if canImport(Darwin)
import Darwin

/// Readiness notification with `kqueue`, plus a user event that another thread uses to wake the loop.
///
/// The value is only a descriptor, so it is `Sendable`: the loop thread waits on it and
/// ``wakeUp()`` may be called from any thread until ``close()``.
package struct Selector: Sendable {
    private let queue: Int32
    private static let wakeIdent: UInt = 0xFFFF_FFFF

    /// Creates the kqueue and its wake-up event.
    package static func make() throws -> Selector {
        let queue = kqueue()
        guard queue >= 0 else { throw SocketError.last("kqueue") }
        let selector = Selector(queue: queue)
        do {
            try selector.change(ident: wakeIdent, filter: Int16(EVFILT_USER), flags: UInt16(EV_ADD | EV_CLEAR))
        } catch {
            selector.close()
            throw error
        }
        return selector
    }

    /// Starts watching `fd`.
    package func register(_ fd: Int32, interest: Interest) throws {
        try change(ident: UInt(fd), filter: Int16(EVFILT_READ), flags: UInt16(EV_ADD | (interest.contains(.read) ? EV_ENABLE : EV_DISABLE)))
        try change(ident: UInt(fd), filter: Int16(EVFILT_WRITE), flags: UInt16(EV_ADD | (interest.contains(.write) ? EV_ENABLE : EV_DISABLE)))
    }

    /// Changes what `fd` is watched for.
    package func modify(_ fd: Int32, interest: Interest) throws {
        try register(fd, interest: interest)
    }

    /// Stops watching `fd`; closing a descriptor does this too.
    package func deregister(_ fd: Int32) {
        try? change(ident: UInt(fd), filter: Int16(EVFILT_READ), flags: UInt16(EV_DELETE))
        try? change(ident: UInt(fd), filter: Int16(EVFILT_WRITE), flags: UInt16(EV_DELETE))
    }

    /// Waits up to `timeout` nanoseconds (forever when `nil`) and reports each ready descriptor.
    ///
    /// - Returns: whether ``wakeUp()`` was called since the last wait.
    @discardableResult
    package func wait(timeout: UInt64?, _ body: (Int32, Readiness) -> Void) throws -> Bool {
        try withUnsafeTemporaryAllocation(of: kevent.self, capacity: 256) { events in
            var spec = timespec(tv_sec: Int(timeout.map { $0 / 1_000_000_000 } ?? 0), tv_nsec: Int(timeout.map { $0 % 1_000_000_000 } ?? 0))
            let count = Syscall.retrying {
                timeout == nil ? kevent(queue, nil, 0, events.baseAddress, 256, nil) : kevent(queue, nil, 0, events.baseAddress, 256, &spec)
            }
            guard count >= 0 else { throw SocketError.last("kevent") }
            var woken = false
            for index in 0..<Int(count) {
                let event = events[index]
                if event.filter == Int16(EVFILT_USER) { woken = true; continue }
                let failed = event.flags & UInt16(EV_ERROR) != 0
                let fd = Int32(event.ident)
                if event.filter == Int16(EVFILT_READ) || failed {
                    body(fd, Readiness(readable: true, writable: failed, failed: failed))
                } else if event.filter == Int16(EVFILT_WRITE) {
                    body(fd, Readiness(readable: false, writable: true))
                }
            }
            return woken
        }
    }

    /// Wakes a thread blocked in ``wait(timeout:_:)``. Safe from any thread.
    package func wakeUp() {
        try? change(ident: Self.wakeIdent, filter: Int16(EVFILT_USER), flags: 0, fflags: UInt32(NOTE_TRIGGER))
    }

    /// Closes the queue.
    package func close() {
        _ = Darwin.close(queue)
    }

    private func change(ident: UInt, filter: Int16, flags: UInt16, fflags: UInt32 = 0) throws {
        var event = kevent(ident: ident, filter: filter, flags: flags, fflags: fflags, data: 0, udata: nil)
        guard kevent(queue, &event, 1, nil, 0, nil) >= 0 else { throw SocketError.last("kevent", "fd \(ident)") }
    }
}
#endif
