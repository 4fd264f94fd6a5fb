import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServerCore

/// URLSession's request timeout for an in-process load: the load fails with `timedOut` once
/// nothing has arrived for `interval` seconds. Runs on the mock's loop thread.
struct InProcessIdleTimeout {
    /// The request's `timeoutInterval`; zero, negative or infinite: no timeout.
    let interval: TimeInterval

    /// Checks after `delay` (the whole interval at first) how long the load has been idle:
    /// `idleTime` says it (`nil` once the load is over), `expire` fails the load with the error.
    func schedule(on loop: EventLoop, after delay: TimeInterval? = nil, idleTime: @escaping () -> TimeInterval?,
                  expire: @escaping (URLError) -> Void) {
        guard interval > 0, interval.isFinite else { return }
        let wait = delay ?? interval
        loop.schedule(after: .nanoseconds(Int64(min(wait, 1e9) * 1e9))) { [unowned loop] in
            guard let idle = idleTime() else { return }
            let remaining = interval - idle
            if remaining > 0.001 {
                schedule(on: loop, after: remaining, idleTime: idleTime, expire: expire)
            } else {
                expire(URLError(.timedOut, userInfo: [NSLocalizedDescriptionKey: "MockServer in-process: no answer within \(interval) s"]))
            }
        }
    }
}
