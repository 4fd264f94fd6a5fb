import Foundation
import MockServerFileSystem
import MockServerHTTP
import MockServerCore

extension WebDAVHandler {
    /// 400 for a malformed `If` header, 412 when none of its lists holds; `nil` when there is none
    /// or it holds.
    func conditionFailure(for path: String) -> HTTPMockResponse? {
        guard let text = request.headers["If"] else { return nil }
        guard let header = WebDAVIfHeader(text) else { return Self.plain(400, "the If header \(text) is malformed\n") }
        let holds = header.lists.contains { list in
            let resource = list.resource.flatMap(FilePaths.path(ofTarget:)) ?? path
            return list.conditions.allSatisfy { condition in
                let result: Bool
                switch condition.subject {
                case .token(let token): result = state.locks.contains { $0.token == token && $0.covers(resource) }
                case .etag(let tag): result = etag(resource).map { $0 == tag || $0 == "W/" + tag } ?? false
                }
                return result != condition.negated
            }
        }
        return holds ? nil : Self.plain(412, "no list of the If header holds: \(text)\n")
    }

    /// 423 when a lock covers one of `paths` and the request does not submit its token.
    func lockFailure(touching paths: [String]) -> HTTPMockResponse? {
        let submitted = request.headers["If"].flatMap(WebDAVIfHeader.init)?.submittedTokens ?? []
        for path in paths {
            let covering = state.locks.filter { $0.covers(path) }
            if !covering.isEmpty, !covering.contains(where: { submitted.contains($0.token) }) {
                let root = covering[0].root
                let body = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<D:error xmlns:D=\"DAV:\"><D:lock-token-submitted><D:href>"
                    + "\(FilePaths.href(root))</D:href></D:lock-token-submitted></D:error>\n"
                return HTTPMockResponse(status: 423, headers: ["Content-Type": "application/xml; charset=utf-8"], body: Array(body.utf8))
            }
        }
        return nil
    }

    mutating func lock(_ path: String) -> HTTPMockResponse {
        let timeout: Int?
        do {
            timeout = try Self.timeout(request.headers["Timeout"])
        } catch {
            return Self.plain(400, "the Timeout header \"\(request.headers["Timeout"] ?? "")\" is not a list of Second-N and Infinite: \(error.option)\n")
        }
        guard request.hasBody else { return refreshLock(path, timeout: timeout) }
        let root: WebDAVXMLNode
        do {
            root = try XMLReader.parse(request.body)
        } catch {
            return Self.refusal(of: "LOCK", error)
        }
        guard root.isElement("DAV:", "lockinfo"), let scopeElement = root.child("DAV:", "lockscope")?.elements.first,
              root.child("DAV:", "locktype")?.child("DAV:", "write") != nil else {
            return Self.plain(400, "a LOCK body is a DAV:lockinfo with a lockscope and a write locktype\n")
        }
        let scope: WebDAVLock.Scope
        switch scopeElement.qualifiedName?.name {
        case "exclusive": scope = .exclusive
        case "shared": scope = .shared
        default: return Self.plain(400, "the lockscope must be exclusive or shared\n")
        }
        let isDeep: Bool
        switch depth {
        case .infinity: isDeep = true
        case .zero: isDeep = false
        case .one: return Self.plain(400, "the Depth header of a LOCK is 0 or infinity, not \(request.headers["Depth"] ?? "")\n")
        }
        if let failure = conditionFailure(for: path) { return failure }
        let existing = index.kind(of: path)
        let lockRoot = existing == .folder ? FilePaths.folder(path) : FilePaths.file(path)
        for other in state.locks where other.covers(lockRoot) || (isDeep && other.root.hasPrefix(FilePaths.folder(lockRoot))) {
            if scope == .exclusive || other.scope == .exclusive {
                return lockFailure(touching: [other.root]) ?? Self.plain(423, "\(path) is locked\n")
            }
        }
        var created = false
        if existing == nil {
            guard index.kind(of: FilePaths.parent(path)) == .folder else { return Self.plain(409, "the parent of \(path) is not a collection\n") }
            files[lockRoot] = []
            times.entries[lockRoot] = FileInfo(at: now)
            touchParent(of: lockRoot)
            index = FileTree(files: files)
            created = true
        }
        let owner = root.child("DAV:", "owner")?.childrenXML
        let lock = WebDAVLock(token: "opaquelocktoken:\(UUID().uuidString.lowercased())", root: lockRoot, isDeep: isDeep, scope: scope,
                              owner: owner, timeout: timeout, refreshed: now)
        state.locks.append(lock)
        return HTTPMockResponse(status: created ? 201 : 200, headers: ["Lock-Token": "<\(lock.token)>", "Content-Type": "application/xml; charset=utf-8"],
                            body: Array(Self.lockDiscoveryDocument([lock]).utf8))
    }

    private mutating func refreshLock(_ path: String, timeout: Int?) -> HTTPMockResponse {
        let submitted = request.headers["If"].flatMap(WebDAVIfHeader.init)?.submittedTokens ?? []
        guard let position = state.locks.firstIndex(where: { submitted.contains($0.token) && $0.covers(path) }) else {
            return Self.plain(412, "a LOCK without a body refreshes a lock, and the If header names none on \(path)\n")
        }
        state.locks[position].timeout = timeout
        state.locks[position].refreshed = now
        return HTTPMockResponse(status: 200, headers: ["Content-Type": "application/xml; charset=utf-8"],
                            body: Array(Self.lockDiscoveryDocument([state.locks[position]]).utf8))
    }

    mutating func unlock(_ path: String) -> HTTPMockResponse {
        guard let header = request.headers["Lock-Token"]?.trimmingSpaces(), header.hasPrefix("<"), header.hasSuffix(">") else {
            return Self.plain(400, "UNLOCK needs a Lock-Token header: <opaquelocktoken:…>\n")
        }
        let token = String(header.dropFirst().dropLast())
        guard let position = state.locks.firstIndex(where: { $0.token == token && $0.covers(path) }) else {
            let body = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<D:error xmlns:D=\"DAV:\"><D:lock-token-matches-request-uri/></D:error>\n"
            return HTTPMockResponse(status: 409, headers: ["Content-Type": "application/xml; charset=utf-8"], body: Array(body.utf8))
        }
        state.locks.remove(at: position)
        return HTTPMockResponse(status: 204)
    }

    /// The longest lock the server grants, in seconds: 2³² − 1, the most RFC 4918 §10.7 lets a
    /// client ask for. A longer `Second-N` (however many digits) is granted this long.
    static let maximumTimeout = Int(UInt32.max)

    /// A `Timeout` option that is neither `Infinite` nor `Second-` and digits.
    struct MalformedTimeout: Error {
        /// The option as the client wrote it.
        let option: String
    }

    /// Seconds from a `Timeout` header (`Second-N`, `Infinite`: the first the server takes, every
    /// option checked): `nil` for ever, an hour when there is none or only `Second-0`,
    /// ``maximumTimeout`` at most.
    ///
    /// - Throws: ``MalformedTimeout`` for an option of another form (RFC 4918 §10.7).
    static func timeout(_ header: String?) throws(MalformedTimeout) -> Int? {
        guard let header else { return 3600 }
        var choice: Int?? = nil
        for option in header.split(separator: ",").map({ $0.trimmingSpaces() }) {
            let lowered = option.lowercased()
            if lowered == "infinite" {
                if choice == nil { choice = .some(nil) }
                continue
            }
            guard lowered.hasPrefix("second-"), let seconds = decimal(lowered.dropFirst(7)) else { throw MalformedTimeout(option: option) }
            if choice == nil, seconds > 0 { choice = min(seconds, maximumTimeout) }
        }
        return choice ?? 3600
    }

    /// A `DAV:activelock` element.
    static func activeLock(_ lock: WebDAVLock) -> String {
        "<D:activelock><D:locktype><D:write/></D:locktype><D:lockscope><D:\(lock.scope.rawValue)/></D:lockscope>"
            + "<D:depth>\(lock.isDeep ? "infinity" : "0")</D:depth>" + (lock.owner.map { "<D:owner>\($0)</D:owner>" } ?? "")
            + "<D:timeout>\(lock.timeoutText)</D:timeout><D:locktoken><D:href>\(lock.token)</D:href></D:locktoken>"
            + "<D:lockroot><D:href>\(FilePaths.href(lock.root))</D:href></D:lockroot></D:activelock>"
    }

    static func lockDiscoveryDocument(_ locks: [WebDAVLock]) -> String {
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<D:prop xmlns:D=\"DAV:\"><D:lockdiscovery>"
            + locks.map(activeLock).joined() + "</D:lockdiscovery></D:prop>\n"
    }

    static let supportedLock = "<D:supportedlock><D:lockentry><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>"
        + "<D:lockentry><D:lockscope><D:shared/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry></D:supportedlock>"
}
