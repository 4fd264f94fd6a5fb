import Foundation

/// Runs blocking work (a ``TestClient`` conversation, say) on a thread of its own, outside Swift's
/// cooperative pool (and outside Dispatch's workers, which a busy process hands out only once a
/// second), and returns its result.
///
/// An asynchronous responder of the server under test runs on that pool; a test that blocked the
/// pool's few threads in synchronous reads while waiting for such a responder could starve it.
public func offPool<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
    try await withCheckedThrowingContinuation { continuation in
        Thread {
            continuation.resume(with: Swift.Result { try work() })
        }.start()
    }
}
