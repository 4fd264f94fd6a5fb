#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Readiness notification with `poll(2)`: one source for Linux and Darwin, and the selector Darwin
/// uses, so that what runs on a Mac is what CI runs here (`MOCKSERVER_SELECTOR=poll`). A pipe wakes
/// it from other threads.
///
/// A descriptor registered with no interest is still polled (with no events). Linux then reports a
/// peer that vanished (`POLLHUP`, `POLLERR`) as epoll does; Darwin reports nothing for it, so there
/// a peer that vanishes while its connection is paused is noticed when the pause ends and the
/// connection reads or writes again.
///
/// Kept: holds registrations read and changed only on the loop's thread (every method but
/// ``wakeUp()``); other threads only call ``wakeUp()``, which writes a byte to a pipe.
package final class PollSelector: @unchecked Sendable {
    private struct Registration {
        var interest: Interest
        /// Tells a descriptor number reused within one batch from the one that was ready.
        let generation: UInt64
    }

    private var registrations: [Int32: Registration] = [:]
    /// What the next `poll` watches: the wake-up pipe first, then every registration.
    private var descriptors: [pollfd] = []
    private var generations: [UInt64] = []
    private var changed = true
    private var nextGeneration: UInt64 = 0
    private let wakeRead: Int32
    private let wakeWrite: Int32

    private init(wakeRead: Int32, wakeWrite: Int32) {
        self.wakeRead = wakeRead
        self.wakeWrite = wakeWrite
    }

    /// Creates the selector and its wake-up pipe.
    package static func make() throws -> PollSelector {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw SocketCallError.last("pipe") }
        for fd in ends {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        return PollSelector(wakeRead: ends[0], wakeWrite: ends[1])
    }

    /// Starts watching `fd`.
    package func register(_ fd: Int32, interest: Interest) throws {
        nextGeneration += 1
        registrations[fd] = Registration(interest: interest, generation: nextGeneration)
        changed = true
    }

    /// Changes what `fd` is watched for.
    ///
    /// - Throws: ``SocketCallError`` (`EBADF`) when `fd` is not registered.
    package func modify(_ fd: Int32, interest: Interest) throws {
        guard registrations[fd] != nil else { throw SocketCallError(call: "poll", address: "fd \(fd)", code: EBADF) }
        registrations[fd]?.interest = interest
        changed = true
    }

    /// Stops watching `fd`.
    package func deregister(_ fd: Int32) {
        if registrations.removeValue(forKey: fd) != nil { changed = true }
    }

    /// Waits up to `timeout` nanoseconds (forever when `nil`) and reports each ready descriptor.
    ///
    /// - Returns: whether ``wakeUp()`` was called since the last wait.
    package func wait(timeout: UInt64?, _ body: (Int32, Readiness) -> Void) throws -> Bool {
        if changed { rebuild() }
        let milliseconds: Int32 = timeout.map { Int32(clamping: ($0 + 999_999) / 1_000_000) } ?? -1
        let count = descriptors.withUnsafeMutableBufferPointer { buffer in
            Syscall.retrying { poll(buffer.baseAddress, nfds_t(buffer.count), milliseconds) }
        }
        guard count >= 0 else { throw SocketCallError.last("poll") }
        guard count > 0 else { return false }
        let woken = descriptors[0].revents != 0
        if woken { drainWakeUps() }
        let failure = Int16(POLLERR) | Int16(POLLHUP) | Int16(POLLNVAL)
        for index in 1..<descriptors.count {
            let entry = descriptors[index]
            guard entry.revents != 0 else { continue }
            // A handler earlier in this batch may have closed this descriptor, and a new
            // connection may have been given its number.
            guard registrations[entry.fd]?.generation == generations[index] else { continue }
            let failed = entry.revents & failure != 0
            body(entry.fd, Readiness(readable: failed || entry.revents & Int16(POLLIN) != 0,
                                     writable: failed || entry.revents & Int16(POLLOUT) != 0,
                                     failed: failed))
        }
        return woken
    }

    /// Wakes a thread blocked in ``wait(timeout:_:)``. Safe from any thread.
    package func wakeUp() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// Closes the wake-up pipe.
    package func close() {
        _ = closeDescriptor(wakeRead)
        _ = closeDescriptor(wakeWrite)
    }

    private func rebuild() {
        descriptors.removeAll(keepingCapacity: true)
        generations.removeAll(keepingCapacity: true)
        descriptors.append(pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0))
        generations.append(0)
        for (fd, registration) in registrations {
            var events: Int16 = 0
            if registration.interest.contains(.read) { events |= Int16(POLLIN) }
            if registration.interest.contains(.write) { events |= Int16(POLLOUT) }
            descriptors.append(pollfd(fd: fd, events: events, revents: 0))
            generations.append(registration.generation)
        }
        changed = false
    }

    private func drainWakeUps() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while buffer.withUnsafeMutableBytes({ read(wakeRead, $0.baseAddress, $0.count) }) > 0 {}
    }
}

#if canImport(Glibc)
private func closeDescriptor(_ fd: Int32) -> Int32 { Glibc.close(fd) }
#elseif canImport(Darwin)
private func closeDescriptor(_ fd: Int32) -> Int32 { Darwin.close(fd) }
#endif
