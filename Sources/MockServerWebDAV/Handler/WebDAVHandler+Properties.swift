import Foundation
import MockServerCore
import MockServerFileSystem
import MockServerHTTP

extension WebDAVHandler {
    /// What a `PROPFIND` asks for.
    enum PropertyRequest {
        case all
        case names
        case some([WebDAVPropertyName])
    }

    mutating func propfind(_ path: String) -> HTTPMockResponse {
        var asked = PropertyRequest.all
        if request.hasBody {
            let root: WebDAVXMLNode
            do {
                root = try XMLReader.parse(request.body)
            } catch {
                return Self.refusal(of: "PROPFIND", error)
            }
            guard root.isElement("DAV:", "propfind") else { return Self.plain(400, "a PROPFIND body is a DAV:propfind element\n") }
            if let prop = root.child("DAV:", "prop") {
                asked = .some(prop.elements.compactMap { $0.qualifiedName.map { WebDAVPropertyName($0.namespace, $0.name) } })
            } else if root.child("DAV:", "propname") != nil {
                asked = .names
            } else if root.child("DAV:", "allprop") == nil {
                return Self.plain(400, "a DAV:propfind holds allprop, propname or prop\n")
            }
        }
        guard let kind = index.kind(of: path) else { return Self.plain(404, "\(path): not found\n") }
        var paths = [kind == .folder ? FilePaths.folder(path) : FilePaths.file(path)]
        if kind == .folder {
            switch depth {
            case .zero: break
            case .one: paths += index.children(of: path)
            case .infinity: paths = index.subtree(of: path)
            }
        }
        let responses = paths.map { response(for: $0, asked: asked) }
        return Self.multistatus(responses)
    }

    static func multistatus(_ responses: [String]) -> HTTPMockResponse {
        let body = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<D:multistatus xmlns:D=\"DAV:\">\n" + responses.joined(separator: "\n") + "\n</D:multistatus>\n"
        return HTTPMockResponse(status: 207, headers: ["Content-Type": "application/xml; charset=utf-8"], body: Array(body.utf8))
    }

    /// The live properties of `path`, as elements (prefix `D:`).
    private func liveProperties(_ path: String) -> [WebDAVPropertyName: String] {
        let info = times.info(path)
        var properties: [WebDAVPropertyName: String] = [:]
        func set(_ name: String, _ value: String) { properties[WebDAVPropertyName("DAV:", name)] = value }
        let isFolder = path.hasSuffix("/")
        set("resourcetype", isFolder ? "<D:resourcetype><D:collection/></D:resourcetype>" : "<D:resourcetype/>")
        set("getlastmodified", "<D:getlastmodified>\(HTTPDate.format(info.modified))</D:getlastmodified>")
        set("creationdate", "<D:creationdate>\(Self.iso8601(info.created))</D:creationdate>")
        set("supportedlock", Self.supportedLock)
        let locks = state.locks.filter { $0.covers(path) }
        set("lockdiscovery", "<D:lockdiscovery>" + locks.map(Self.activeLock).joined() + "</D:lockdiscovery>")
        if let tag = etag(path) { set("getetag", "<D:getetag>\(WebDAVXMLNode.escaped(tag))</D:getetag>") }
        if !isFolder, let name = index.files[path], let bytes = files[name] {
            set("getcontentlength", "<D:getcontentlength>\(bytes.count)</D:getcontentlength>")
            set("getcontenttype", "<D:getcontenttype>\(Self.contentType(of: path))</D:getcontenttype>")
        }
        return properties
    }

    private func response(for path: String, asked: PropertyRequest) -> String {
        let live = liveProperties(path)
        let dead = state.properties[path] ?? [:]
        func element(_ name: WebDAVPropertyName) -> String? {
            if let value = live[name] { return value }
            return dead[name].map { value in "<\(name.name) xmlns=\"\(WebDAVXMLNode.escaped(name.namespace))\">\(value)</\(name.name)>" }
        }
        var found: [String] = []
        var missing: [String] = []
        switch asked {
        case .all:
            found = live.keys.sorted().compactMap(element) + dead.keys.sorted().compactMap(element)
        case .names:
            found = (live.keys.sorted() + dead.keys.sorted()).map { $0.namespace == "DAV:" ? "<D:\($0.name)/>" : $0.emptyElement }
        case .some(let names):
            for name in names {
                if let value = element(name) { found.append(value) } else { missing.append(name.namespace == "DAV:" ? "<D:\(name.name)/>" : name.emptyElement) }
            }
        }
        var text = "<D:response><D:href>\(FilePaths.href(path))</D:href>"
        if !found.isEmpty || missing.isEmpty { text += Self.propstat(found, status: "200 OK") }
        if !missing.isEmpty { text += Self.propstat(missing, status: "404 Not Found") }
        return text + "</D:response>"
    }

    static func propstat(_ properties: [String], status: String) -> String {
        "<D:propstat><D:prop>\(properties.joined())</D:prop><D:status>HTTP/1.1 \(status)</D:status></D:propstat>"
    }

    /// `date` as an RFC 3339 time in UTC (`creationdate`): `2024-01-01T12:00:00Z`.
    static func iso8601(_ date: Date) -> String {
        let time = UTCTime(secondsSince1970: Int64(date.timeIntervalSince1970.rounded(.down)))
        return "\(time.year)-\(UTCTime.twoDigits(time.month))-\(UTCTime.twoDigits(time.day))"
            + "T\(UTCTime.twoDigits(time.hour)):\(UTCTime.twoDigits(time.minute)):\(UTCTime.twoDigits(time.second))Z"
    }

    mutating func proppatch(_ path: String) -> HTTPMockResponse {
        let root: WebDAVXMLNode
        do {
            root = try XMLReader.parse(request.body)
        } catch {
            return Self.refusal(of: "PROPPATCH", error)
        }
        guard root.isElement("DAV:", "propertyupdate") else { return Self.plain(400, "a PROPPATCH body is a DAV:propertyupdate element\n") }
        guard let kind = index.kind(of: path) else { return Self.plain(404, "\(path): not found\n") }
        let key = kind == .folder ? FilePaths.folder(path) : FilePaths.file(path)
        if let failure = conditionFailure(for: path) { return failure }
        if let locked = lockFailure(touching: [key]) { return locked }
        // Every instruction in document order; all or nothing (RFC 4918 §9.2).
        var changes: [(name: WebDAVPropertyName, value: String?)] = []
        for instruction in root.elements {
            let isSet = instruction.isElement("DAV:", "set")
            guard isSet || instruction.isElement("DAV:", "remove") else { continue }
            for property in instruction.child("DAV:", "prop")?.elements ?? [] {
                guard let name = property.qualifiedName else { continue }
                changes.append((WebDAVPropertyName(name.namespace, name.name), isSet ? property.childrenXML : nil))
            }
        }
        let protected = changes.filter { WebDAVPropertyName.live.contains($0.name) }
        var responses: [String] = []
        if protected.isEmpty {
            var properties = state.properties[key] ?? [:]
            for change in changes { properties[change.name] = change.value }
            state.properties[key] = properties
            responses = [Self.propstat(changes.map { element($0.name) }, status: "200 OK")]
        } else {
            let failing = Set(protected.map(\.name))
            responses = [Self.propstat(failing.sorted().map(element), status: "403 Forbidden")]
            let others = changes.map(\.name).filter { !failing.contains($0) }
            if !others.isEmpty { responses.append(Self.propstat(others.map(element), status: "424 Failed Dependency")) }
        }
        return Self.multistatus(["<D:response><D:href>\(FilePaths.href(key))</D:href>" + responses.joined() + "</D:response>"])
    }

    private func element(_ name: WebDAVPropertyName) -> String {
        name.namespace == "DAV:" ? "<D:\(name.name)/>" : name.emptyElement
    }
}
