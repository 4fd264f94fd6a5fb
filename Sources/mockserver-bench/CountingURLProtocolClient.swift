import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(HotPath) import MockServerCore

/// A `URLProtocolClient` that only counts what it is told: with it a protocol's `startLoading` is
/// timed alone, without URLSession's tasks, queues and cache around it.
final class CountingURLProtocolClient: NSObject, URLProtocolClient, Sendable {
    /// The counts, behind a lock that is never contended (the benchmark calls from one thread at a
    /// time): about 40 instructions a call, against the thousands of a `startLoading`.
    private struct Counts {
        var responses = 0
        var bytes = 0
        var finished = 0
        var failures = 0
    }

    private let counts = Locked(Counts())

    var responses: Int { counts.withLock { $0.responses } }
    var bytes: Int { counts.withLock { $0.bytes } }
    var finished: Int { counts.withLock { $0.finished } }
    var failures: Int { counts.withLock { $0.failures } }

    func urlProtocol(_ protocol: URLProtocol, wasRedirectedTo request: URLRequest, redirectResponse: URLResponse) {}
    func urlProtocol(_ protocol: URLProtocol, cachedResponseIsValid cachedResponse: CachedURLResponse) {}
    func urlProtocol(_ protocol: URLProtocol, didReceive response: URLResponse, cacheStoragePolicy policy: URLCache.StoragePolicy) { counts.withLock { $0.responses += 1 } }
    func urlProtocol(_ protocol: URLProtocol, didLoad data: Data) { counts.withLock { $0.bytes += data.count } }
    func urlProtocolDidFinishLoading(_ protocol: URLProtocol) { counts.withLock { $0.finished += 1 } }
    func urlProtocol(_ protocol: URLProtocol, didFailWithError error: Error) { counts.withLock { $0.failures += 1 } }
    func urlProtocol(_ protocol: URLProtocol, didReceive challenge: URLAuthenticationChallenge) {}
    func urlProtocol(_ protocol: URLProtocol, didCancel challenge: URLAuthenticationChallenge) {}
}
