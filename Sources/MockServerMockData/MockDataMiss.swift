import MockServerHTTP

/// A request that no mock-data file answered, with every file name that was tried.
package struct MockDataMiss: Sendable {
    /// The request.
    package let request: HTTPMockRequest
    /// The folder searched (symbolic links resolved).
    package let folder: String
    /// The file names tried, in search order.
    package let triedFileNames: [String]

    /// What the `404 Not Found` says: the request, then each name tried, in order.
    package var text: String {
        var lines = ["MockServer: no mock-data file answers \(request.method) \(request.target)", ""]
        lines += listing
        return lines.joined(separator: "\n") + "\n"
    }

    /// The names tried, as lines under a heading that names the folder.
    package var listing: [String] {
        ["Files tried, in order, in \(folder):"] + triedFileNames.map { "  " + $0 }
            + ["", "Add one of them (the first that exists answers)."]
    }
}
