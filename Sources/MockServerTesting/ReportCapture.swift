import Foundation
import Testing

/// Where the `with…MockServer` helpers send the failures they report: to Swift Testing as issues,
/// or, inside ``capturing(_:)``, to a list the caller reads instead.
///
/// The package's own tests of those reports fail on purpose; capturing lets them check each
/// report's text and still pass without printing it (as `withKnownIssue` would, with "passed with
/// N known issues" and the whole report).
///
/// ```swift
/// let reports = try await ReportCapture.capturing {
///     try await withHTTPMockServer { server in /* a request no stub answers */ }
/// }
/// #expect(reports.count == 1)
/// ```
package enum ReportCapture {
    /// The reports captured so far.
    /// Kept: holds a lock; every access to `texts` holds it.
    final class Reports: @unchecked Sendable {
        private let lock = NSLock()
        private var texts: [String] = []

        func append(_ text: String) {
            lock.lock(); defer { lock.unlock() }
            texts.append(text)
        }

        var all: [String] {
            lock.lock(); defer { lock.unlock() }
            return texts
        }
    }

    /// The list of the innermost ``capturing(_:)`` around the current task, if any.
    @TaskLocal static var current: Reports?

    /// Records `text` as an issue at `sourceLocation`, or adds it to the capturing list.
    static func record(_ text: String, at sourceLocation: SourceLocation) {
        if let current {
            current.append(text)
        } else {
            Issue.record(Comment(rawValue: text), sourceLocation: sourceLocation)
        }
    }

    /// Runs `body` and returns the reports the helpers made in it, in order, instead of recording
    /// them as issues. An error `body` throws is rethrown (its reports are lost with it: catch it
    /// inside `body` to read both).
    package static func capturing(_ body: () async throws -> Void) async rethrows -> [String] {
        let reports = Reports()
        try await $current.withValue(reports) { try await body() }
        return reports.all
    }
}
