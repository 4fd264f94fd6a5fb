import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An error in words a test failure can show: a `URLError` by its name, number and URL
/// (`URLSession failed: badServerResponse (-1011) for http://127.0.0.1:52110/pot`) instead of
/// Foundation's `Error Domain=NSURLErrorDomain Code=-1011 "(null)"UserInfo={…}`; anything else as
/// it describes itself.
enum ReadableError {
    static func describe(_ error: any Error) -> String {
        guard let urlError = error as? URLError else { return "\(error)" }
        let code = urlError.code
        let name = names[code] ?? "URLError"
        let url = urlError.failingURL.map { " for \($0.absoluteString)" } ?? ""
        let meaning = meanings[code].map { ": \($0)" } ?? ""
        return "URLSession failed: \(name) (\(code.rawValue))\(url)\(meaning)"
    }

    /// The names of the codes a mock's faults and refusals produce.
    static let names: [URLError.Code: String] = [
        .badServerResponse: "badServerResponse", .networkConnectionLost: "networkConnectionLost",
        .cannotConnectToHost: "cannotConnectToHost", .timedOut: "timedOut", .cancelled: "cancelled",
        .cannotFindHost: "cannotFindHost", .badURL: "badURL", .unsupportedURL: "unsupportedURL",
        .notConnectedToInternet: "notConnectedToInternet", .zeroByteResource: "zeroByteResource",
        .cannotParseResponse: "cannotParseResponse", .userAuthenticationRequired: "userAuthenticationRequired",
        .secureConnectionFailed: "secureConnectionFailed", .serverCertificateUntrusted: "serverCertificateUntrusted",
        .serverCertificateHasBadDate: "serverCertificateHasBadDate", .serverCertificateNotYetValid: "serverCertificateNotYetValid",
        .serverCertificateHasUnknownRoot: "serverCertificateHasUnknownRoot", .httpTooManyRedirects: "httpTooManyRedirects",
        .resourceUnavailable: "resourceUnavailable", .dataLengthExceedsMaximum: "dataLengthExceedsMaximum",
    ]

    /// What the commonest of them usually mean when the server is a mock.
    static let meanings: [URLError.Code: String] = [
        .badServerResponse: "the connection closed before a whole response (an unmatched input closes it; so do «close» and faults)",
        .networkConnectionLost: "the connection was reset or closed mid-response (a «reset» or truncate fault, say)",
        .cannotConnectToHost: "nothing listens there (was the server started, or already stopped?)",
        .timedOut: "no answer in time (a «hang», a long pause, or a request nothing answers)",
    ]
}
