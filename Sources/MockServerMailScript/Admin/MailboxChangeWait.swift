import Dispatch
@_spi(HotPath) import MockServerCore

/// One long poll's wait for the mailbox to change: resumed once, by the first change told
/// (``finish()``, from a store observer or a delivery) or by its timeout, whichever comes first.
final class MailboxChangeWait: Sendable {
    /// Where the wait is: nothing told yet and nobody suspended, the poll suspended on it, or over.
    private enum Phase {
        case armed
        case suspended(CheckedContinuation<Void, Never>)
        case finished
    }

    private let phase = Locked(Phase.armed)

    /// Ends the wait (a second call does nothing): the suspended poll resumes, or one that has not
    /// suspended yet will not.
    func finish() {
        let continuation = phase.withLock { phase -> CheckedContinuation<Void, Never>? in
            defer { phase = .finished }
            if case .suspended(let continuation) = phase { return continuation }
            return nil
        }
        continuation?.resume()
    }

    /// Suspends until ``finish()`` is called or `timeout` has passed.
    func wait(timeout: Duration) async {
        let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: nanoseconds))) { [self] in finish() }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let over = phase.withLock { phase -> Bool in
                if case .finished = phase { return true }
                phase = .suspended(continuation)
                return false
            }
            if over { continuation.resume() }
        }
    }
}
