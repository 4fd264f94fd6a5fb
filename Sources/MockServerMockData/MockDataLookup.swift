import MockServerHTTP

/// What a mock-data folder holds for a request.
package enum MockDataLookup: Sendable {
    /// The file `fileName` answers with `response`.
    case found(fileName: String, response: HTTPMockResponse)
    /// The file `fileName` would answer, but it does not hold a response.
    case invalid(fileName: String, error: MockDataError)
    /// No file answers.
    case missing(MockDataMiss)
}
