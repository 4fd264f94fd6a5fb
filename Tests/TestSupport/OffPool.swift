import Dispatch

/// Runs blocking work (a ``TestClient`` conversation, say) on a Dispatch thread, outside Swift's
/// cooperative pool, and returns its result.
///
/// An asynchronous responder of the server under test runs on that pool; a test that blocked the
/// pool's few threads in synchronous reads while waiting for such a responder could starve it.
public func offPool<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(with: Swift.Result { try work() })
        }
    }
}
