import Foundation
@_spi(HotPath) import MockServerCore
import MockServerEngine
import MockServerMail

extension MockServer.Mail {
    /// The folders of `address`: `INBOX` first, then the others by name (`Archive/2026`).
    public func folders(of address: String) -> [String] {
        server.store.folders(of: address)
    }

    /// A folder of `address` as it is now, or nil when there is none.
    public func folder(_ name: String = "INBOX", of address: String) -> Folder? {
        server.store.folder(name, of: address).map(Folder.init)
    }

    /// Waits until a folder of `address` is as `condition` says (a flag set, a message moved in
    /// or out, a folder made), and returns it. No polling: every change to the address's folders,
    /// whichever protocol made it, checks the condition again.
    ///
    /// ```swift
    /// let inbox = try await mail.waitForFolder(of: "ann@example.com") { folder in
    ///     folder.messages.contains { $0.flags.contains("\\Seen") }
    /// }
    /// ```
    ///
    /// - Throws: ``MockServer/Mail/Timeout`` with the folder as it last was, or `CancellationError`.
    public func waitForFolder(_ name: String = "INBOX", of address: String, timeout: Duration = .seconds(10),
                              until condition: @escaping @Sendable (Folder) -> Bool) async throws -> Folder {
        let store = server.store
        let waiter = FolderWaiter()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Folder, any Error>) in
                waiter.begin(continuation)
                let check: @Sendable () -> Void = {
                    guard let folder = store.folder(name, of: address).map(Folder.init), condition(folder) else { return }
                    waiter.finish(.success(folder))
                }
                let observation = store.observe(address, check)
                waiter.onFinish { store.stopObserving(observation) }
                check()
                let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
                DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: nanoseconds))) {
                    let now = store.folder(name, of: address).map { "\(Folder($0))" } ?? "no folder \(name) of \(address)"
                    waiter.finish(.failure(Timeout(description: "No change made folder \(name) of \(address) match within \(timeout); it is now: \(now)")))
                }
            }
        } onCancel: {
            waiter.finish(.failure(CancellationError()))
        }
    }

    /// Gives a folder of `address` a new UIDVALIDITY and renumbers its messages from UID 1, as a
    /// server that lost its index does; IMAP sessions that have it selected are told `* BYE` at
    /// their next command. Returns the new UIDVALIDITY, or nil when there is no such folder.
    @discardableResult
    public func changeUIDValidity(of folder: String = "INBOX", for address: String) -> UInt32? {
        server.store.changeUIDValidity(folder: folder, of: address)
    }
}

/// One wait for a folder's state: resumed once, by a change, the timeout or a cancellation,
/// whichever comes first; its registration with the store ended then.
private final class FolderWaiter: Sendable {
    private struct State {
        var continuation: CheckedContinuation<MockServer.Mail.Folder, any Error>?
        var done = false
        var cleanup: (@Sendable () -> Void)?
    }

    private let state = Locked(State())

    func begin(_ continuation: CheckedContinuation<MockServer.Mail.Folder, any Error>) {
        state.withLock { $0.continuation = continuation }
    }

    func onFinish(_ cleanup: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if state.done { return true }
            state.cleanup = cleanup
            return false
        }
        if runNow { cleanup() }
    }

    func finish(_ result: Result<MockServer.Mail.Folder, any Error>) {
        let (continuation, cleanup) = state.withLock { state -> (CheckedContinuation<MockServer.Mail.Folder, any Error>?, (@Sendable () -> Void)?) in
            guard !state.done else { return (nil, nil) }
            state.done = true
            defer { state.continuation = nil; state.cleanup = nil }
            return (state.continuation, state.cleanup)
        }
        cleanup?()
        continuation?.resume(with: result)
    }
}
