import Testing

/// Runs each test of a suite (or one test) on one of the suite's own thread pools rather than
/// Swift's cooperative pool: `.offPool` (``TestThreadPool/shared``) for tests that block a thread
/// while an external client or a socket answers, `.cpuBound` (``TestThreadPool/compute``, a thread
/// per core) for synchronous tests that compute for a long time (scanning the sources, thousands of
/// parser cases, a 100,000-deep document).
///
/// ```swift
/// @Suite("FTP through real clients", .offPool)
/// struct FTPClientTests { … }
///
/// @Suite("The reference", .cpuBound)
/// struct ReferenceTests { … }
/// ```
///
/// Swift Testing starts every test of a run at once, and a test holds a thread of the cooperative
/// pool (one per core) for as long as it blocks or computes without an `await`. The pool runs what is
/// queued in order, so every `await` of the process (a test's, an asynchronous mock answer's) waits
/// behind them: a 50 ms sleep at the start of a full run once woke 29 s late, and a test whose
/// request timeout raced its own resumption failed. On threads of their own, those tests share the
/// processors with everything else through the system's scheduler, whose turns are milliseconds.
///
/// With Swift 6.0, whose Testing library cannot wrap a test (`TestScoping` came in 6.1), and on
/// systems older than task executors (macOS 15), the tests stay on the cooperative pool.
public struct ThreadPoolTrait: TestTrait, SuiteTrait {
    /// Which of the suite's pools the tests run on (a name, not the pool, which needs macOS 15).
    public enum Pool: Sendable {
        /// ``TestThreadPool/shared``: more threads than cores, for tests that block.
        case blocking
        /// ``TestThreadPool/compute``: one thread per core, for tests that compute.
        case compute
    }

    /// The pool the tests run on.
    public let pool: Pool

    /// Applies to every test of a suite it is given to.
    public var isRecursive: Bool { true }
}

#if compiler(>=6.1)
extension ThreadPoolTrait: TestScoping {
    /// The scope of each test case: the suite itself needs none.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> ThreadPoolTrait? {
        testCase == nil ? nil : self
    }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            try await withTaskExecutorPreference(pool == .compute ? TestThreadPool.compute : TestThreadPool.shared) {
                try await function()
            }
        } else {
            try await function()
        }
    }
}
#endif

extension Trait where Self == ThreadPoolTrait {
    /// Runs the test (every test of a suite) on ``TestThreadPool/shared``, off Swift's cooperative
    /// pool: for tests that block on a client.
    public static var offPool: Self { ThreadPoolTrait(pool: .blocking) }

    /// Runs the test (every test of a suite) on ``TestThreadPool/compute``, off Swift's cooperative
    /// pool: for synchronous tests that compute for long.
    public static var cpuBound: Self { ThreadPoolTrait(pool: .compute) }
}
