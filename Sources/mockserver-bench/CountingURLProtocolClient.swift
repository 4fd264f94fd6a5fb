import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `URLProtocolClient` that only counts what it is told: with it a protocol's `startLoading` is
/// timed alone, without URLSession's tasks, queues and cache around it.
final class CountingURLProtocolClient: NSObject, URLProtocolClient, @unchecked Sendable {
    // @unchecked Sendable: the benchmark calls it from one thread at a time.
    var responses = 0
    var bytes = 0
    var finished = 0
    var failures = 0

    func urlProtocol(_ protocol: URLProtocol, wasRedirectedTo request: URLRequest, redirectResponse: URLResponse) {}
    func urlProtocol(_ protocol: URLProtocol, cachedResponseIsValid cachedResponse: CachedURLResponse) {}
    func urlProtocol(_ protocol: URLProtocol, didReceive response: URLResponse, cacheStoragePolicy policy: URLCache.StoragePolicy) { responses += 1 }
    func urlProtocol(_ protocol: URLProtocol, didLoad data: Data) { bytes += data.count }
    func urlProtocolDidFinishLoading(_ protocol: URLProtocol) { finished += 1 }
    func urlProtocol(_ protocol: URLProtocol, didFailWithError error: Error) { failures += 1 }
    func urlProtocol(_ protocol: URLProtocol, didReceive challenge: URLAuthenticationChallenge) {}
    func urlProtocol(_ protocol: URLProtocol, didCancel challenge: URLAuthenticationChallenge) {}
}
