import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The tests' one `URLRequest` builder.
public enum TestRequest {
    /// A request for `target` (a path, with a query if any, written out as sent) on
    /// `127.0.0.1:port`, with `headers` and a UTF-8 `body`; it times out after `timeout` seconds.
    public static func make(port: UInt16, _ method: String, _ target: String, headers: [String: String] = [:], body: String? = nil,
                            timeout: TimeInterval = 60) -> URLRequest {
        guard let url = URL(string: "http://127.0.0.1:\(port)\(target)") else { preconditionFailure("not a request target: \(target)") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body.map { Data($0.utf8) }
        request.timeoutInterval = timeout
        return request
    }
}
