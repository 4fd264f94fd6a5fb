import Dispatch
import Foundation
import MockServer
@_spi(HotPath) import MockServerCore

/// The servers the signal handlers and `/shutdown` stop, and the queue they do it on.
///
/// `Sendable`: what it stops is held in a ``MockServerCore/Locked`` value (set on `queue` with
/// `queue.sync`, read by handlers that run there, so the lock is never contended).
final class RunningServer: Sendable {
    /// What is stopped, and what runs after.
    private struct Stopped {
        var server: MockServer?
        var admin: MockServer?
        var afterStop: (() -> Void)?
    }

    /// The serial queue of the signal handlers, and of every access to the servers below.
    let queue = DispatchQueue(label: "mockserver.signals")
    private let stopped = Locked(Stopped())

    var server: MockServer? {
        get { stopped.withLock { $0.server } }
        set { stopped.withLock { $0.server = newValue } }
    }

    /// The admin API's listener, when `--admin` asked for one.
    var admin: MockServer? {
        get { stopped.withLock { $0.admin } }
        set { stopped.withLock { $0.admin = newValue } }
    }

    /// What must happen once the server has stopped and before the exit (a recording's last write).
    var afterStop: (() -> Void)? {
        get { stopped.withLock { $0.afterStop } }
        set { stopped.withLock { $0.afterStop = newValue } }
    }

    /// Routes SIGINT and SIGTERM to ``stopAndExit()`` on ``queue``; keep the sources for as long as
    /// the process runs. Call it before any server starts: its thread must start with the signals
    /// already routed here.
    func routeStopSignals() -> [any DispatchSourceSignal] {
        #if os(Linux)
        // libdispatch reads these signals from a signalfd, which sees a signal only while no thread
        // takes it: blocked here, in the main thread before any other starts (each inherits the
        // mask), so that the kernel cannot hand SIGTERM to a thread with libdispatch's handler and
        // leave the signalfd without it (then the process went on serving: seen under load in CI).
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGINT)
        sigaddset(&stopSignals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &stopSignals, nil)
        #endif
        return [SIGINT, SIGTERM].map { signalNumber in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            // @Sendable: not isolated to the main actor (top-level code is), since it runs on `queue`.
            source.setEventHandler { @Sendable in self.stopAndExit() }
            source.resume()
            return source
        }
    }

    /// Parks the calling (main) thread for good, keeping `sources` alive: the servers run on their
    /// loop threads, the signal handlers on ``queue``. Not dispatchMain(): it ends the main thread
    /// with pthread_exit, whose unwinding leaves AddressSanitizer's marks on this frame's stack, where
    /// libdispatch then writes (a false report under --sanitize=address, and exit status 1).
    static func park(keeping sources: [any DispatchSourceSignal]) -> Never {
        let parked = DispatchSemaphore(value: 0)
        while true { withExtendedLifetime(sources) { parked.wait() } }
    }

    /// Stops the mock and the admin API's listener, then exits with status 0. Runs on ``queue``:
    /// a stop signal's handler, or the admin API's `/shutdown` once its answer has been written.
    func stopAndExit() {
        server?.stop()
        admin?.stop()
        afterStop?()
        exit(0)
    }
}
