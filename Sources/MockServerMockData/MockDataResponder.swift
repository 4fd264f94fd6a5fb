import Foundation
@_spi(HotPath) import MockServerCore
import MockServerHTTP

/// Answers HTTP requests from a folder of files named after the requests they answer, by
/// VOKMockUrlProtocol's convention (``MockDataNaming``), over a socket or in-process.
///
/// ```swift
/// let responder = try MockDataResponder(folder: URL(fileURLWithPath: "Fixtures/VOKMockData"))
/// let server = MockServer(httpResponder: responder)
/// ```
///
/// A request no file answers gets `404 Not Found`, whose body lists every file name tried in
/// search order; it is recorded as unmatched in the transcript and kept in ``misses``. A file that
/// would answer but does not hold a response (edited into a bad state while serving) gets a 500
/// naming the file and line.
public final class MockDataResponder: HTTPMockResponder {
    /// The folder the files are read from (symbolic links resolved).
    public var folder: URL { URL(fileURLWithPath: files.path, isDirectory: true) }
    /// Whether file names may hold `*` for the whole query, the whole body, or both.
    public let allowsWildcards: Bool
    private let files: MockDataFolder
    private let missLog = Locked<[MockDataMiss]>([])

    /// A responder for the files in `folder`, all read (and checked) now.
    ///
    /// - Parameters:
    ///   - folder: the folder of `.http` and `.json` files.
    ///   - allowsWildcards: whether `*` in a file name stands for the whole query or body.
    /// - Throws: ``MockDataError`` naming the folder, or the first bad file with its line.
    public convenience init(folder: URL, allowsWildcards: Bool = false) throws(MockDataError) {
        try self.init(folder: folder, allowsWildcards: allowsWildcards, requestMask: .standard)
    }

    /// A responder for the files in `folder` that masks a request with `requestMask` (and the
    /// names the folder's `.mockserver-mask` file adds) before looking it up a second time.
    ///
    /// - Throws: ``MockDataError`` naming the folder, or the first bad file with its line.
    package init(folder: URL, allowsWildcards: Bool = false, requestMask: HTTPRequestMask) throws(MockDataError) {
        files = try MockDataFolder(url: folder)
        self.allowsWildcards = allowsWildcards
        self.requestMask = MockDataMaskFile.read(in: URL(fileURLWithPath: files.path, isDirectory: true)).map { requestMask.adding($0) } ?? requestMask
    }

    /// What a request is masked with before its second lookup: what a recording masked in the
    /// file names it wrote (query parameters, form and JSON fields named like secrets).
    package let requestMask: HTTPRequestMask

    /// A responder for the folder `name` among `bundle`'s resources: a test target declares it with
    /// `resources: [.copy("VOKMockData")]` and passes `in: .module`.
    ///
    /// - Throws: ``MockDataError/notInBundle(name:bundlePath:)`` when the bundle has no such folder.
    public convenience init(named name: String = "VOKMockData", in bundle: Bundle, allowsWildcards: Bool = false) throws(MockDataError) {
        guard let url = bundle.url(forResource: name, withExtension: nil) else {
            throw .notInBundle(name: name, bundlePath: bundle.bundlePath)
        }
        try self.init(folder: url, allowsWildcards: allowsWildcards)
    }

    /// The requests no file answered, in order.
    package var misses: [MockDataMiss] { missLog.withLock { $0 } }

    /// The names of the files that can answer, sorted.
    public var fileNames: [String] { files.fileNames }

    /// Reads and checks every file again (a file is also read again on its own when it changes).
    ///
    /// - Throws: the first bad file's error.
    public func reload() throws(MockDataError) { try files.reload() }

    /// The file that answers `request`, without recording a miss.
    /// A request with secrets in its query or body (a `token` parameter, a `password` field) is
    /// looked up as sent, then as a recording wrote it: masked by ``requestMask``.
    package func lookup(_ request: HTTPMockRequest) -> MockDataLookup {
        var names = MockDataNaming.fileNames(for: request, allowsWildcards: allowsWildcards)
        if let masked = requestMask.masked(request) {
            names += MockDataNaming.fileNames(for: masked, allowsWildcards: allowsWildcards).filter { !names.contains($0) }
        }
        for name in names {
            switch files.response(named: name) {
            case .success(let response)?: return .found(fileName: name, response: response)
            case .failure(let error)?: return .invalid(fileName: name, error: error)
            case nil: continue
            }
        }
        return .missing(MockDataMiss(request: request, folder: files.path, triedFileNames: names))
    }

    public func answerImmediately(_ request: HTTPMockRequest, context: HTTPRequestContext) throws -> HTTPReply.Immediate {
        switch lookup(request) {
        case .found(let name, let response):
            return .reply(HTTPReply(response, name: name))
        case .invalid(let name, let error):
            return .reply(HTTPReply(Self.invalidFileResponse(error), name: name))
        case .missing(let miss):
            missLog.withLock { $0.append(miss) }
            return .reply(HTTPReply(Self.missResponse(text: miss.text), name: "no mock-data file", isUnexpected: true))
        }
    }

    public func respond(to request: HTTPMockRequest, context: HTTPRequestContext) async throws -> HTTPReply? {
        guard case .reply(let reply) = try answerImmediately(request, context: context) else { return nil }
        return reply
    }

    /// The `404 Not Found` for a request no file answers, with `text` as its body.
    package static func missResponse(text: String) -> HTTPMockResponse {
        HTTPMockResponse(status: 404, headers: ["Content-Type": "text/plain; charset=utf-8", "X-MockServer": "No Mock Data"], body: Array(text.utf8))
    }

    /// The 500 for a file that would answer but holds no response.
    package static func invalidFileResponse(_ error: MockDataError) -> HTTPMockResponse {
        HTTPMockResponse(status: 500, headers: ["Content-Type": "text/plain; charset=utf-8", "X-MockServer": "Bad Mock Data"],
                     body: Array("MockServer: \(error)\n".utf8))
    }
}
