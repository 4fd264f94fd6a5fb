import Foundation
import MockServer

/// The server the signal handlers stop, set once it has started.
///
/// `@unchecked Sendable`: `server` is written once on the main thread before any signal can be
/// handled, and read by the signal handler on the main queue, so every access is on one thread.
final class RunningServer: @unchecked Sendable {
    var server: MockServer?
    /// The admin API's listener, when `--admin` asked for one.
    var admin: MockServer?
}
