import MockServer

/// The problems a stub server's test fails for, as report texts: the unexpected requests (when
/// asked), the errors endpoint closures threw, and with `strict` the unused stubs and the requests
/// out of a declared order. Shared by `withHTTPMockServer` and ``MockServerTestCase``.
enum StubServerProblems {
    static func reports(of server: HTTPMockServer, unexpected: Bool, strict: Bool) -> [String] {
        var reports = unexpected ? server.unexpectedRequestReports.map(\.text) : []
        reports += server.handlerFailures.map { "MockServer: an endpoint closure threw (its request got a 500): \($0)" }
        if strict { reports += server.strictVerificationReports }
        return reports
    }
}
