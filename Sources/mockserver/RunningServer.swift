import Dispatch
import Foundation
import MockServer

/// The servers the signal handlers and `/shutdown` stop, and the queue they do it on.
///
/// `@unchecked Sendable`: `server` and `admin` are only read or written on `queue` (set with
/// `queue.sync`, read by handlers that run there), so every access is on that serial queue.
final class RunningServer: @unchecked Sendable {
    /// The serial queue of the signal handlers, and of every access to the servers below.
    let queue = DispatchQueue(label: "mockserver.signals")
    var server: MockServer?
    /// The admin API's listener, when `--admin` asked for one.
    var admin: MockServer?
    /// What must happen once the server has stopped and before the exit (a recording's last write).
    var afterStop: (() -> Void)?

    /// Stops the mock and exits with status 0. Runs on ``queue``.
    func stopAndExit() {
        server?.stop()
        afterStop?()
        exit(0)
    }
}
