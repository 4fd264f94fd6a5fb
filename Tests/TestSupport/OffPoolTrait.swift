import Testing

/// Runs each test of a suite (or one test) on ``TestThreadPool/shared`` rather than Swift's
/// cooperative pool: for tests that block a thread while an external client or a socket answers.
///
/// ```swift
/// @Suite("FTP through real clients", .offPool)
/// struct FTPClientTests { … }
/// ```
///
/// With Swift 6.0, whose Testing library cannot wrap a test (`TestScoping` came in 6.1), and on
/// systems older than task executors (macOS 15), the tests stay on the cooperative pool.
public struct OffPoolTrait: TestTrait, SuiteTrait {
    /// Applies to every test of a suite it is given to.
    public var isRecursive: Bool { true }
}

#if compiler(>=6.1)
extension OffPoolTrait: TestScoping {
    /// The scope of each test case: the suite itself needs none.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> OffPoolTrait? {
        testCase == nil ? nil : self
    }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            try await withTaskExecutorPreference(TestThreadPool.shared) {
                try await function()
            }
        } else {
            try await function()
        }
    }
}
#endif

extension Trait where Self == OffPoolTrait {
    /// Runs the test (every test of a suite) on ``TestThreadPool/shared``, off Swift's cooperative pool.
    public static var offPool: Self { OffPoolTrait() }
}
