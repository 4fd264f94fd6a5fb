import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The least a `URLProtocol` stub can do: answer every request at once with the same 200 and body.
/// The floor that any in-process stub pays for URLSession's own machinery.
final class ConstantURLProtocol: URLProtocol {
    private static let body = Data("ok\n".utf8)

    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        guard let url = request.url, let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Content-Length": "3"]) else { return }
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: Self.body)
        client?.urlProtocolDidFinishLoading(self)
    }

    override func stopLoading() {}
}
