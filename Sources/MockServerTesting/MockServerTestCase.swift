import Foundation
import MockServer
import XCTest

/// An `XCTestCase` that serves a response file for the test and cleans up after it, in the manner of
/// the original MockServer's `KMSTestCase`, with async/await instead of run-loop pumping.
///
/// ```swift
/// final class DownloadTests: MockServerTestCase {
///     func testDownload() async throws {
///         let server = try setUpServer(responses: "ftp")
///         server.data = Data("hello".utf8)
///         let (data, _) = try await URLSession.shared.data(from: url(for: "file.txt"))
///         XCTAssertEqual(data, Data("hello".utf8))
///         try useResponseSet("stor denied")
///     }
/// }
/// ```
///
/// The server is stopped after the test whatever happens, and inputs that no response matched fail
/// it with a report, at the line that started the server (set ``failsOnUnexpectedInput`` to `false`
/// to allow them). To expect the report where there is no `XCTExpectFailure` (Linux), set
/// ``failsOnUnexpectedInput`` to `false` and assert on `UnexpectedInputReport(server:)` yourself.
///
/// A stub server (``setUpHTTPServer(configuration:file:line:)``) fails the test the same way for
/// unexpected requests and closures' errors, and with ``isStrict`` for stubs that answered no request
/// and requests out of an order declared with `inOrder`:
///
/// ```swift
/// final class LoginTests: MockServerTestCase {
///     override var isStrict: Bool { true }
///
///     func testLoginThenItems() async throws {
///         let server = try await setUpHTTPServer()
///         server.inOrder {
///             server.stubRequest("POST", "/login").andReturn(200)
///             server.stubRequest("GET", "/items").andReturn(200).withBody("[]")
///         }
///         // log in, then list the items
///     }
/// }
/// ```
open class MockServerTestCase: XCTestCase {
    /// The server of the running test, once ``setUpServer(responses:set:bundle:configuration:file:line:)`` was called.
    public private(set) var server: MockServer?
    /// Where the test started its server: the file and line a failure about it is reported at.
    public private(set) var serverCallSite: (file: StaticString, line: UInt)?
    /// Whether inputs that matched no response fail the test. True by default.
    open var failsOnUnexpectedInput = true
    /// Whether a stub server's unused stubs and requests out of a declared order fail the test too
    /// (``HTTPMockServer/strictVerificationReports``). False by default.
    open var isStrict: Bool { false }
    /// The stub server of the running test, once ``setUpHTTPServer(configuration:file:line:)`` was called.
    public private(set) var httpServer: HTTPMockServer?

    /// Starts a server answering with the response file `name` (`NAME.json` in `bundle`, such as
    /// `Bundle.module`, or a script bundled with MockServer such as `ftp`), on ports the system picks.
    ///
    /// - Throws: ``ResponseFileError`` for a missing or invalid file; ``SocketCallError`` when it cannot listen.
    @discardableResult
    open func setUpServer(responses name: String, set: String = "default", bundle: Bundle? = nil,
                          configuration: MockServer.Configuration = .init(),
                          file: StaticString = #filePath, line: UInt = #line) throws -> MockServer {
        try setUpServer(script: ScriptLoading.script(named: name, in: bundle), set: set, configuration: configuration, file: file, line: line)
    }

    /// Starts a server answering with `script`; a report about it is recorded at `file` and `line`
    /// (the caller's).
    @discardableResult
    open func setUpServer(script: ResponseScript, set: String = "default", configuration: MockServer.Configuration = .init(),
                          file: StaticString = #filePath, line: UInt = #line) throws -> MockServer {
        server?.stop()
        let server = try MockServer(script: script, set: set, configuration: configuration)
        try server.start()
        self.server = server
        serverCallSite = (file, line)
        addTeardownBlock { [weak self] in
            server.stop()
            if self?.failsOnUnexpectedInput ?? true, let report = UnexpectedInputReport(server: server) {
                XCTFail(report.description, file: file, line: line)
            }
        }
        return server
    }

    /// Starts a stub server for the test (add stubs and endpoints to it), stopped after the test.
    /// Unexpected requests and closures' errors fail the test at the caller's line (with
    /// ``failsOnUnexpectedInput``), and with ``isStrict`` unused stubs and requests out of a
    /// declared order.
    ///
    /// - Throws: ``SocketCallError`` when it cannot listen.
    @discardableResult
    open func setUpHTTPServer(configuration: MockServer.Configuration = .init(),
                              file: StaticString = #filePath, line: UInt = #line) async throws -> HTTPMockServer {
        await httpServer?.stop()
        let server = HTTPMockServer(configuration: configuration)
        try await server.start()
        httpServer = server
        serverCallSite = (file, line)
        let unexpected = failsOnUnexpectedInput
        let strict = isStrict
        addTeardownBlock {
            server.stop()
            for report in StubServerProblems.reports(of: server, unexpected: unexpected, strict: strict) {
                XCTFail(report, file: file, line: line)
            }
        }
        return server
    }

    /// A URL for `path` on the test's server, with the script's scheme: `ftp://127.0.0.1:PORT/path`.
    public func url(for path: String = "/") -> URL {
        guard let server else {
            XCTFail("url(for:) needs setUpServer(responses:) first")
            return URL(fileURLWithPath: "/")
        }
        return server.url(for: path)
    }

    /// Switches the test's server to another response set.
    ///
    /// - Throws: ``ResponseFileError`` for an unknown set.
    public func useResponseSet(_ name: String) throws {
        guard let server else {
            XCTFail("useResponseSet(_:) needs setUpServer(responses:) first")
            return
        }
        try server.useResponseSet(name)
    }
}
