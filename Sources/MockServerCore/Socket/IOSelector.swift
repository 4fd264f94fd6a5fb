#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The event loop's readiness notification: epoll (the Linux default) or poll (the Darwin default,
/// and on Linux with the environment variable `MOCKSERVER_SELECTOR=poll`).
///
/// `Sendable`: the loop thread waits on it, and ``wakeUp()`` may be called from any thread until
/// ``close()``.
package struct IOSelector: Sendable {
    /// The mechanism behind a selector.
    package enum Kind: String, Sendable {
        case epoll
        case poll

        /// `MOCKSERVER_SELECTOR`'s choice, or the platform's default.
        ///
        /// - Throws: ``SocketCallError`` (`EINVAL`) naming the variable and its value when it names no
        ///   selector this platform has.
        package static func chosen(environment: [String: String]) throws -> Kind {
            guard let name = environment["MOCKSERVER_SELECTOR"], !name.isEmpty else { return platformDefault }
            guard let kind = Kind(rawValue: name), kind != .epoll || hasEpoll else {
                throw SocketCallError(call: "MOCKSERVER_SELECTOR", address: name, code: EINVAL)
            }
            return kind
        }

        #if os(Linux)
        package static let platformDefault = Kind.epoll
        private static let hasEpoll = true
        #else
        package static let platformDefault = Kind.poll
        private static let hasEpoll = false
        #endif
    }

    /// Whether a peer that vanishes while its connection reads nothing (a pause, a transfer) is
    /// reported at once. Linux reports `POLLHUP`/`EPOLLHUP` for every registered descriptor; Darwin's
    /// `poll` watches nothing for a descriptor with no events, so there the connection notices when
    /// it reads or writes again (when the pause ends).
    package static var reportsVanishedPeersWhileIdle: Bool {
        #if os(Linux)
        true
        #else
        false
        #endif
    }

    private enum Backend: Sendable {
        #if os(Linux)
        case epoll(EpollSelector)
        #endif
        case poll(PollSelector)
    }

    private let backend: Backend

    /// What this selector uses.
    package var kind: Kind {
        switch backend {
        #if os(Linux)
        case .epoll: .epoll
        #endif
        case .poll: .poll
        }
    }

    /// Creates the selector that `MOCKSERVER_SELECTOR` chooses, or the platform's default.
    package static func make() throws -> IOSelector {
        try make(kind: Kind.chosen(environment: environmentVariables()))
    }

    /// Creates a selector of `kind`.
    package static func make(kind: Kind) throws -> IOSelector {
        switch kind {
        case .epoll:
            #if os(Linux)
            return IOSelector(backend: .epoll(try EpollSelector.make()))
            #else
            throw SocketCallError(call: "MOCKSERVER_SELECTOR", address: "epoll", code: EINVAL)
            #endif
        case .poll:
            return IOSelector(backend: .poll(try PollSelector.make()))
        }
    }

    /// Starts watching `fd`.
    package func register(_ fd: Int32, interest: Interest) throws {
        switch backend {
        #if os(Linux)
        case .epoll(let epoll): try epoll.register(fd, interest: interest)
        #endif
        case .poll(let poll): try poll.register(fd, interest: interest)
        }
    }

    /// Changes what `fd` is watched for.
    package func modify(_ fd: Int32, interest: Interest) throws {
        switch backend {
        #if os(Linux)
        case .epoll(let epoll): try epoll.modify(fd, interest: interest)
        #endif
        case .poll(let poll): try poll.modify(fd, interest: interest)
        }
    }

    /// Stops watching `fd`.
    package func deregister(_ fd: Int32) {
        switch backend {
        #if os(Linux)
        case .epoll(let epoll): epoll.deregister(fd)
        #endif
        case .poll(let poll): poll.deregister(fd)
        }
    }

    /// Waits up to `timeout` nanoseconds (forever when `nil`) and reports each ready descriptor.
    ///
    /// - Returns: whether ``wakeUp()`` was called since the last wait.
    @discardableResult
    package func wait(timeout: UInt64?, _ body: (Int32, Readiness) -> Void) throws -> Bool {
        switch backend {
        #if os(Linux)
        case .epoll(let epoll): try epoll.wait(timeout: timeout, body)
        #endif
        case .poll(let poll): try poll.wait(timeout: timeout, body)
        }
    }

    /// Wakes a thread blocked in ``wait(timeout:_:)``. Safe from any thread.
    package func wakeUp() {
        switch backend {
        #if os(Linux)
        case .epoll(let epoll): epoll.wakeUp()
        #endif
        case .poll(let poll): poll.wakeUp()
        }
    }

    /// Releases the selector's own descriptors.
    package func close() {
        switch backend {
        #if os(Linux)
        case .epoll(let epoll): epoll.close()
        #endif
        case .poll(let poll): poll.close()
        }
    }
}

/// The process's environment, read with libc (Foundation stays out of the socket layer).
private func environmentVariables() -> [String: String] {
    guard let value = getenv("MOCKSERVER_SELECTOR") else { return [:] }
    return ["MOCKSERVER_SELECTOR": String(cString: value)]
}
