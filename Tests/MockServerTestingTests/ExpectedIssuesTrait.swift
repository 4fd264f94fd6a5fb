#if compiler(>=6.1)
import Foundation
import Testing

/// Runs a test inside `withKnownIssue`, collecting every issue recorded in it and the error it
/// throws, then hands them to a check. Put before a mock trait, it wraps that trait's scope too, so
/// the check sees the problems the mock reports after the body, where they were reported, and the
/// error the mock's scope let out:
///
/// ```swift
/// @Test(.expectingIssues { outcome in #expect(outcome.issues.count == 1) }, .httpMockServer())
/// ```
///
/// On a suite it wraps the suite's scope once: the issues of all its tests, and what a suite's mock
/// reports when the suite ends.
///
/// The error is the check's to judge, not an issue; with no issue recorded the check still runs
/// (`isIntermittent`), so it is the one to fail.
struct ExpectedIssuesTrait: TestTrait, SuiteTrait, TestScoping {
    /// What the test and the traits inside this one did.
    struct Outcome: Sendable {
        /// The issues recorded, in order.
        let issues: [Issue]
        /// The error that came out of the scopes inside this one, if any.
        let thrown: (any Error)?
        /// The test.
        let test: Test
    }

    /// The issues and the error so far. `@unchecked Sendable`: every access holds `lock`.
    final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var issues: [Issue] = []
        private var thrown: (any Error)?

        func append(_ issue: Issue) {
            lock.lock(); defer { lock.unlock() }
            issues.append(issue)
        }

        func threw(_ error: any Error) {
            lock.lock(); defer { lock.unlock() }
            thrown = error
        }

        func outcome(of test: Test) -> Outcome {
            lock.lock(); defer { lock.unlock() }
            return Outcome(issues: issues, thrown: thrown, test: test)
        }
    }

    let check: @Sendable (Outcome) -> Void

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let collected = Collected()
        await withKnownIssue(isIntermittent: true) {
            do {
                try await function()
            } catch {
                collected.threw(error)
            }
        } matching: { issue in
            collected.append(issue)
            return true
        }
        check(collected.outcome(of: test))
    }
}

extension Trait where Self == ExpectedIssuesTrait {
    /// Collects the issues of the test (and of the traits listed after this one) as known ones, and
    /// the error they throw, and checks them with `check`.
    static func expectingIssues(_ check: @escaping @Sendable (ExpectedIssuesTrait.Outcome) -> Void) -> Self {
        ExpectedIssuesTrait(check: check)
    }
}
#endif
