import Testing

/// Runs each test of a suite (or one test) on ``TestThreadPool/shared`` rather than Swift's
/// cooperative pool: for tests that block a thread while an external client or a socket answers.
///
/// ```swift
/// @Suite("FTP through real clients", .offPool)
/// struct FTPClientTests { … }
/// ```
public struct OffPoolTrait: TestTrait, SuiteTrait, TestScoping {
    /// Applies to every test of a suite it is given to.
    public var isRecursive: Bool { true }

    /// The scope of each test case: the suite itself needs none.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> OffPoolTrait? {
        testCase == nil ? nil : self
    }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try await withTaskExecutorPreference(TestThreadPool.shared) {
            try await function()
        }
    }
}

extension Trait where Self == OffPoolTrait {
    /// Runs the test (every test of a suite) on ``TestThreadPool/shared``, off Swift's cooperative pool.
    public static var offPool: Self { OffPoolTrait() }
}
