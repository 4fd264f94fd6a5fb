import Foundation
import MockServerFileSystem
import MockServerHTTP
import MockServerCore

/// A WebDAV server (RFC 4918, class 1 and 2) over the server's files: one request in, one response
/// out, the files and the WebDAV state changed in place. Pure apart from the clock it is given; the
/// caller holds whatever lock guards `files` and `state`.
///
/// Methods: `OPTIONS`; `GET` and `HEAD` (folders too) with `ETag`, `Last-Modified`, `Range` and the
/// conditional headers; `PUT`, `DELETE`, `MKCOL`, `COPY`, `MOVE`; `PROPFIND` and `PROPPATCH` with
/// dead properties; `LOCK` and `UNLOCK` with exclusive and shared write locks, `If` headers and
/// `423 Locked`.
package struct WebDAVHandler: FileStoreBacked {
    /// The server's files and their times, shared with FTP; the file system's own changes
    /// (``FileStore/makeFolder(_:at:)``, ``FileStore/remove(_:at:)``, ``FileStore/copy(_:to:move:shallow:at:)``)
    /// make `MKCOL`, `DELETE`, `COPY` and `MOVE`'s.
    package var store: FileStore
    /// Dead properties and locks.
    package var state: WebDAVState
    /// The file a `PUT` stored, for the server's uploads.
    package private(set) var stored: (path: String, bytes: [UInt8])?

    let request: HTTPMockRequest
    let now: Date
    var index: FileTree
    /// The request's `Depth` (`infinity` when it has none), once ``respond()`` has checked it.
    var depth = WebDAVDepth.infinity

    package static let allowedMethods = "OPTIONS, GET, HEAD, PUT, DELETE, MKCOL, COPY, MOVE, PROPFIND, PROPPATCH, LOCK, UNLOCK"

    package init(request: HTTPMockRequest, files: [String: [UInt8]], times: FileTimes, state: WebDAVState, now: Date = Date()) {
        self.request = request
        self.store = FileStore(files: files, times: times)
        self.state = state
        self.now = now
        self.index = FileTree(files: files)
    }

    /// The response to the request; `files`, `state` and `stored` then hold its effects.
    package mutating func respond() -> HTTPMockResponse {
        respond(as: request.method)
    }

    /// The response to the request as if its method were `method` (`«propfind»` answers any
    /// request it is given as a `PROPFIND`): the same checks of its target and `Depth`.
    package mutating func respond(as method: String) -> HTTPMockResponse {
        state.locks.removeAll { $0.hasExpired(at: now) }
        // A fragment is never part of a request (RFC 9112 §3.2): refused rather than ignored, so that
        // `DELETE /a/#b` cannot remove `/a/`.
        if request.target.contains("#") { return Self.plain(400, "the request target \(request.target) holds a fragment (#)\n") }
        guard let path = FilePaths.path(ofTarget: request.target) else {
            return Self.plain(400, "the request target \(request.target) is not a valid path\n")
        }
        // Depth is 0, 1 or infinity on every method (RFC 4918 §10.2), and said once.
        let depths = request.headers.values(for: "Depth")
        if depths.count > 1 { return Self.plain(400, "the Depth header is given \(depths.count) times: \(depths.joined(separator: ", "))\n") }
        guard let depth = WebDAVDepth(header: depths.first) else { return Self.plain(400, WebDAVDepth.refusal(depths.first ?? "")) }
        self.depth = depth
        switch method {
        case "OPTIONS":
            return HTTPMockResponse(status: 200, headers: ["DAV": "1, 2", "Allow": Self.allowedMethods, "MS-Author-Via": "DAV", "Content-Length": "0"])
        case "GET", "HEAD": return get(path)
        case "PUT": return put(path)
        case "DELETE": return delete(path)
        case "MKCOL": return makeCollection(path)
        case "COPY", "MOVE": return copyOrMove(path, move: method == "MOVE")
        case "PROPFIND": return propfind(path)
        case "PROPPATCH": return proppatch(path)
        case "LOCK": return lock(path)
        case "UNLOCK": return unlock(path)
        default:
            return HTTPMockResponse(status: 405, headers: ["Allow": Self.allowedMethods, "Content-Type": "text/plain"],
                                body: Array("\(method) is not a WebDAV method here\n".utf8))
        }
    }

    // MARK: - Reading

    /// The current entity tag of `path` (the file system's, whatever serves the file); `nil` when
    /// nothing is there.
    func etag(_ path: String) -> String? {
        FileETag.of(path, in: index, files: files)
    }

    func lastModified(_ path: String) -> Date {
        let info = times.info(index.kind(of: path) == .folder ? FilePaths.folder(path) : FilePaths.file(path))
        return Date(timeIntervalSince1970: info.modified.timeIntervalSince1970.rounded(.down))
    }

    private mutating func get(_ path: String) -> HTTPMockResponse {
        guard let kind = index.kind(of: path) else { return Self.plain(404, "\(path): not found\n") }
        let tag = etag(path) ?? ""
        let modified = lastModified(path)
        var headers: HTTPHeaderFields = ["ETag": tag, "Last-Modified": HTTPDate.format(modified)]
        if let failure = preconditionFailure(etag: tag, modified: modified, reading: true) { return failure }
        let body: [UInt8]
        switch kind {
        case .folder:
            let links = index.children(of: path).map { child -> String in
                let name = FilePaths.lastSegment(child) + (child.hasSuffix("/") ? "/" : "")
                return "<li><a href=\"\(FilePaths.href(child))\">\(WebDAVXMLNode.escaped(name))</a></li>"
            }
            body = Array("<html><body><h1>\(WebDAVXMLNode.escaped(path))</h1><ul>\(links.joined())</ul></body></html>\n".utf8)
            headers.add(name: "Content-Type", value: "text/html; charset=utf-8")
        case .file(let name):
            body = files[name] ?? []
            headers.add(name: "Content-Type", value: Self.contentType(of: path))
            headers.add(name: "Accept-Ranges", value: "bytes")
            if let range = request.headers["Range"], ifRangeHolds(etag: tag, modified: modified) {
                switch Self.byteRange(range, length: body.count) {
                case .whole: break
                case .unsatisfiable:
                    headers.add(name: "Content-Range", value: "bytes */\(body.count)")
                    return HTTPMockResponse(status: 416, headers: headers)
                case .part(let part):
                    headers.add(name: "Content-Range", value: "bytes \(part.lowerBound)-\(part.upperBound - 1)/\(body.count)")
                    return HTTPMockResponse(status: 206, headers: headers, body: Array(body[part]))
                }
            }
        }
        return HTTPMockResponse(status: 200, headers: headers, body: body)
    }

    private func ifRangeHolds(etag: String, modified: Date) -> Bool {
        guard let condition = request.headers["If-Range"]?.trimmingSpaces() else { return true }
        if condition.hasPrefix("\"") { return condition == etag }
        return HTTPDate.date(condition).map { modified <= $0 } ?? false
    }

    enum ByteRange: Equatable {
        case whole, unsatisfiable, part(Range<Int>)
    }

    /// A `Range` header with one byte range (`a-b`, `a-`, `-n`); several ranges, or another unit,
    /// are served whole, as RFC 9110 allows.
    static func byteRange(_ header: String, length: Int) -> ByteRange {
        let value = header.trimmingSpaces()
        guard value.lowercased().hasPrefix("bytes="), !value.contains(",") else { return .whole }
        let spec = value.dropFirst(6).trimmingSpaces()
        guard let dash = spec.firstIndex(of: "-") else { return .whole }
        let first = spec[..<dash], last = spec[spec.index(after: dash)...]
        // Positions are digits only (no sign) and saturate at Int.max: a position past any file
        // still means "past the end", and no arithmetic below can overflow.
        if first.isEmpty {
            guard let suffix = decimal(last) else { return .whole }
            guard suffix > 0, length > 0 else { return .unsatisfiable }
            return .part(length - min(suffix, length)..<length)
        }
        guard let start = decimal(first) else { return .whole }
        guard start < length else { return .unsatisfiable }
        if last.isEmpty { return .part(start..<length) }
        guard let end = decimal(last), end >= start else { return .whole }
        return .part(start..<min(end, length - 1) + 1)
    }

    /// The number `text` writes in decimal digits (nothing else: no sign, no space), saturated at
    /// `Int.max`; `nil` when it is empty or holds anything but digits.
    static func decimal(_ text: Substring) -> Int? {
        guard !text.isEmpty else { return nil }
        var value = 0
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (shifted, overflowShift) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowAdd) = shifted.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            value = overflowShift || overflowAdd ? Int.max : sum
        }
        return value
    }

    /// 304 or 412 for the request's `If-Match`, `If-None-Match`, `If-Modified-Since` and
    /// `If-Unmodified-Since` against a resource with `etag` (`nil`: nothing there) and `modified`.
    func preconditionFailure(etag: String?, modified: Date?, reading: Bool) -> HTTPMockResponse? {
        func matches(_ list: String) -> Bool {
            let tags = list.split(separator: ",").map { $0.trimmingSpaces() }
            if tags.contains("*") { return etag != nil }
            guard let etag else { return false }
            // Strong comparison for If-Match, weak for If-None-Match (RFC 9110 §13.1).
            return tags.contains(etag) || (reading && tags.contains { $0.replacingOccurrences(of: "W/", with: "") == etag.replacingOccurrences(of: "W/", with: "") })
        }
        if let list = request.headers["If-Match"], !matches(list) { return Self.plain(412, "If-Match: \(list) does not match\n") }
        if request.headers["If-Match"] == nil, let since = request.headers["If-Unmodified-Since"].flatMap(HTTPDate.date), let modified, modified > since {
            return Self.plain(412, "modified since \(HTTPDate.format(since))\n")
        }
        if let list = request.headers["If-None-Match"], matches(list) {
            return reading ? HTTPMockResponse(status: 304, headers: etag.map { ["ETag": $0] } ?? [:]) : Self.plain(412, "If-None-Match: \(list) matches\n")
        }
        if reading, request.headers["If-None-Match"] == nil, let since = request.headers["If-Modified-Since"].flatMap(HTTPDate.date),
           let modified, modified <= since {
            return HTTPMockResponse(status: 304, headers: etag.map { ["ETag": $0] } ?? [:])
        }
        return nil
    }

    static func contentType(of path: String) -> String {
        switch path.split(separator: ".").last?.lowercased() {
        case "txt": "text/plain"
        case "html", "htm": "text/html"
        case "json": "application/json"
        case "xml": "application/xml"
        default: "application/octet-stream"
        }
    }

    // MARK: - Writing

    private mutating func put(_ path: String) -> HTTPMockResponse {
        let existing = index.kind(of: path)
        if existing == .folder { return Self.plain(405, "\(path) is a collection\n") }
        guard index.kind(of: FilePaths.parent(path)) == .folder else { return Self.plain(409, "the parent of \(path) is not a collection\n") }
        if let failure = conditionFailure(for: path) { return failure }
        if let failure = preconditionFailure(etag: etag(path), modified: existing == nil ? nil : lastModified(path), reading: false) { return failure }
        if let locked = lockFailure(touching: [FilePaths.file(path)]) { return locked }
        let file = FilePaths.file(path)
        let body = request.body
        if case .file(let name)? = existing { files[name] = nil }
        files[file] = body
        times.touch(file, at: now)
        touchParent(of: file)
        index = FileTree(files: files)
        stored = (file, body)
        var headers: HTTPHeaderFields = ["ETag": FileETag.of(body), "Content-Type": "text/plain"]
        if existing == nil { headers.add(name: "Location", value: FilePaths.href(file)) }
        return HTTPMockResponse(status: existing == nil ? 201 : 204, headers: headers, body: existing == nil ? Array("created \(file)\n".utf8) : [])
    }

    private mutating func delete(_ path: String) -> HTTPMockResponse {
        guard index.kind(of: path) != nil else { return Self.plain(404, "\(path): not found\n") }
        guard FilePaths.file(path) != "/" else { return Self.plain(403, "the root cannot be deleted\n") }
        if let failure = conditionFailure(for: path) { return failure }
        if let failure = preconditionFailure(etag: etag(path), modified: lastModified(path), reading: false) { return failure }
        if let locked = lockFailure(touching: index.subtree(of: path)) { return locked }
        remove(path)
        return HTTPMockResponse(status: 204)
    }

    /// Removes `path` and everything below it, with their details and locks.
    mutating func remove(_ path: String) {
        let doomed = store.remove(path, at: now) ?? []
        forget(doomed)
        index = store.tree
    }

    /// Forgets the dead properties of `paths` and the locks rooted at them.
    mutating func forget(_ paths: Set<String>) {
        for gone in paths { state.properties[gone] = nil }
        state.locks.removeAll { paths.contains($0.root) }
    }

    private mutating func makeCollection(_ path: String) -> HTTPMockResponse {
        if request.hasBody { return Self.plain(415, "MKCOL with a body is not supported\n") }
        if index.kind(of: path) != nil { return Self.plain(405, "\(path) already exists\n") }
        guard index.kind(of: FilePaths.parent(path)) == .folder else { return Self.plain(409, "the parent of \(path) is not a collection\n") }
        if let failure = conditionFailure(for: path) { return failure }
        let folder = FilePaths.folder(path)
        if let locked = lockFailure(touching: [folder]) { return locked }
        store.makeFolder(folder, at: now)
        index = store.tree
        return HTTPMockResponse(status: 201, headers: ["Location": FilePaths.href(folder), "Content-Length": "0"])
    }

    /// Marks the folder holding `path` as changed now.
    mutating func touchParent(of path: String) {
        times.folderChanged(FilePaths.parent(path), at: now)
    }

    /// 400 for a request body the XML reader refused, naming the method and, for a body nested too
    /// deep, the limit.
    static func refusal(of method: String, _ failure: XMLReader.Failure) -> HTTPMockResponse {
        switch failure {
        case .malformed: plain(400, "the \(method) body is not XML: \(failure.message)\n")
        case .tooDeep: plain(400, "the \(method) body is refused: \(failure.message)\n")
        }
    }

    static func plain(_ status: Int, _ text: String) -> HTTPMockResponse {
        HTTPMockResponse(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(text.utf8))
    }
}
