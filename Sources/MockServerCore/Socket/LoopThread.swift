#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A POSIX thread that can be joined, so that `stop()` returns only when the thread is gone.
///
/// `Foundation.Thread` cannot be joined; counting threads after 10,000 start/stop cycles needs this.
package struct LoopThread: Sendable {
    #if canImport(Glibc)
    private let thread: pthread_t
    #else
    /// `pthread_t` is an opaque pointer on Darwin, which is not `Sendable`: its address is kept, as
    /// it is only handed back to `pthread_join`.
    private let thread: UInt
    #endif

    /// Starts a thread that runs `body` with the process's asynchronous signals blocked, so that a
    /// signal meant for the application (SIGINT, SIGTERM, …) is never delivered to the loop thread.
    ///
    /// - Throws: ``SocketCallError`` naming `pthread_create`.
    package static func start(_ body: @escaping @Sendable () -> Void) throws -> LoopThread {
        final class Box: Sendable {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        #if canImport(Glibc)
        var thread = pthread_t()
        #else
        var thread: pthread_t?
        #endif
        let result = pthread_create(&thread, nil, { context in
            blockControlSignals()
            guard let context else { return nil }
            Unmanaged<Box>.fromOpaque(context).takeRetainedValue().body()
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<Box>.fromOpaque(context).release()
            throw SocketCallError(call: "pthread_create", code: result)
        }
        #if canImport(Glibc)
        return LoopThread(thread: thread)
        #else
        guard let thread else { throw SocketCallError(call: "pthread_create", code: EAGAIN) }
        return LoopThread(thread: UInt(bitPattern: thread))
        #endif
    }

    /// Waits for the thread to finish.
    package func join() {
        #if canImport(Glibc)
        _ = pthread_join(thread, nil)
        #else
        if let thread = pthread_t(bitPattern: thread) { _ = pthread_join(thread, nil) }
        #endif
    }
}

/// Blocks, in the calling thread, the signals a process uses for control, so that they go to the
/// application's own threads. (A file-level function: calling a static method from the C thread
/// entry crashes the Swift 6.3 compiler.)
private func blockControlSignals() {
    var set = sigset_t()
    sigemptyset(&set)
    for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGPIPE, SIGCHLD, SIGALRM] {
        sigaddset(&set, signal)
    }
    pthread_sigmask(SIG_BLOCK, &set, nil)
}
