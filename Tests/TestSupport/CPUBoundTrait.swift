import Testing

/// Runs each test of a suite (or one test) on ``TestThreadPool/compute`` rather than Swift's
/// cooperative pool: for synchronous tests that compute for a long time (scanning the sources,
/// thousands of parser cases, a 100,000-deep document).
///
/// ```swift
/// @Suite("The reference", .cpuBound)
/// struct ReferenceTests { … }
/// ```
///
/// Swift Testing starts every test of a run at once, and a synchronous test holds a thread of the
/// cooperative pool (one per core) from its first line to its last. The pool runs what is queued in
/// order, so every `await` of the process (a test's, an asynchronous mock answer's) waits behind
/// the computing tests queued before it: a 50 ms sleep at the start of a full run once woke 29 s
/// late, and a test whose request timeout raced its own resumption failed. On threads of their
/// own, the computing tests share the processors with everything else through the system's
/// scheduler, whose turns are milliseconds. Tests that block on a client take `.offPool` instead,
/// whose pool has more threads than cores.
///
/// With Swift 6.0, and on systems older than task executors (macOS 15), the tests stay on the
/// cooperative pool.
public struct CPUBoundTrait: TestTrait, SuiteTrait {
    /// Applies to every test of a suite it is given to.
    public var isRecursive: Bool { true }
}

#if compiler(>=6.1)
extension CPUBoundTrait: TestScoping {
    /// The scope of each test case: the suite itself needs none.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> CPUBoundTrait? {
        testCase == nil ? nil : self
    }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            try await withTaskExecutorPreference(TestThreadPool.compute) {
                try await function()
            }
        } else {
            try await function()
        }
    }
}
#endif

extension Trait where Self == CPUBoundTrait {
    /// Runs the test (every test of a suite) on ``TestThreadPool/compute``, off Swift's cooperative pool.
    public static var cpuBound: Self { CPUBoundTrait() }
}
