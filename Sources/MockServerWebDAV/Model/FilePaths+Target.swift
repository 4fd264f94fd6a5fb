import MockServerFileSystem
import MockServerHTTP

extension FilePaths {
    /// The decoded path a request target (or a `Destination` URI) names; `nil` when it holds NUL
    /// or bad percent-encoding.
    static func path(ofTarget target: String) -> String? {
        path(ofReference: AbsoluteURI.pathOnward(of: Substring(target)))
    }
}
