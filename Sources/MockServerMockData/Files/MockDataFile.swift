import MockServerCore
import MockServerHTTP

/// Turns a mock-data file's bytes into the response it stands for.
///
/// - `.http`: a whole response (``HTTPRawResponse``): status line, headers, blank line, body. The
///   body is served exactly as it stands in the file, with its true `Content-Length`; any
///   `Transfer-Encoding` or `Content-Length` header in the file is dropped.
/// - `.json`: `200 OK` with `Content-Type: application/json` and the file as the body. The file
///   must be JSON (an error names its line and column otherwise).
enum MockDataFile {
    /// The response in the file at `path` (named by its extension) with contents `bytes`.
    static func response(path: String, bytes: [UInt8]) throws(MockDataError) -> HTTPMockResponse {
        if path.hasSuffix(".json") {
            do {
                // A byte-order mark, as some editors write, is served as written but not held against the file.
                _ = try JSONReader.parse(bytes, options: .strict)
            } catch {
                throw .malformedFile(path: path, line: error.location.line, column: error.location.column, message: "not JSON: \(error.message)")
            }
            return HTTPMockResponse(status: 200, headers: ["Content-Type": "application/json"], body: bytes)
        }
        do {
            return try HTTPRawResponse.parse(bytes)
        } catch {
            throw .malformedFile(path: path, line: error.line, column: nil, message: error.message)
        }
    }
}
