import MockServerCore
import MockServerFileSystem
import MockServerHTTP

/// The server's files seen as a WebDAV tree, for `«propfind»`, `{"mkdir": …}`, `{"delete": …}`,
/// `{"copy": …}` and `{"move": …}`.
///
/// File names are request paths (`/folder/file.txt`; a name without the leading `/` counts as if it
/// had one). A name ending in `/` is an empty folder; every folder above a file exists too, and `/`
/// always does. Pure: names and bytes in, bytes out.
package struct WebDAVTree {
    private let files: [String: [UInt8]]

    /// How deep a `PROPFIND` looks (`Depth: 0`, `1`, or `infinity`, the default).
    package enum Depth: Equatable {
        case zero, one, infinity

        /// The `Depth` header's value, `infinity` when there is none (RFC 4918 §9.1); `nil` for
        /// anything but `0`, `1` and `infinity` (RFC 4918 §10.2), which is refused with 400.
        package init?(header: String?) {
            switch header?.trimmingSpaces().lowercased() {
            case "0": self = .zero
            case "1": self = .one
            case nil, "infinity": self = .infinity
            default: return nil
            }
        }

        /// Why the `Depth` header `value` is refused, naming it.
        package static func refusal(_ value: String) -> String {
            "the Depth header \"\(value)\" is not 0, 1 or infinity\n"
        }
    }

    package init(files: [String: [UInt8]]) {
        self.files = files
    }

    /// The request target as a tree path: the path of an absolute URI, without the query, with a
    /// leading `/`.
    package static func path(ofTarget target: String) -> String {
        var path = AbsoluteURI.pathOnward(of: Substring(target))
        if let query = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<query] }
        return path.hasPrefix("/") ? String(path) : "/" + path
    }

    /// `path` as a folder path, ending in `/`.
    private static func folder(_ path: String) -> String { path.hasSuffix("/") ? path : path + "/" }

    /// Whether the stored `name` is `path` itself or lies below it.
    private static func isAtOrBelow(_ name: String, _ path: String) -> Bool {
        let namePath = FileName.path(name)
        return namePath == path || namePath.hasPrefix(folder(path))
    }

    /// Folder paths (ending in `/`) and file paths with their sizes.
    private func entries() -> (folders: Set<String>, files: [String: Int]) {
        var folders: Set<String> = ["/"]
        var sizes: [String: Int] = [:]
        for (name, bytes) in files {
            let path = FileName.path(name)
            if path.hasSuffix("/") { folders.insert(path) } else { sizes[path] = bytes.count }
            var prefix = ""
            for segment in path.split(separator: "/", omittingEmptySubsequences: false).dropLast() {
                prefix += segment + "/"
                folders.insert(prefix)
            }
        }
        return (folders, sizes)
    }

    /// Whether `path` names a file or a folder.
    package func exists(_ path: String) -> Bool {
        let (folders, sizes) = entries()
        return sizes[path] != nil || folders.contains(Self.folder(path))
    }

    /// The `207 Multi-Status` body for `path` at `depth`, or `nil` when nothing is there.
    package func multistatus(for path: String, depth: Depth) -> [UInt8]? {
        let (folders, sizes) = entries()
        var responses: [String] = []
        if let size = sizes[path] {
            responses.append(fileResponse(path, size: size))
        } else {
            let folder = Self.folder(path)
            guard folders.contains(folder) else { return nil }
            responses.append(folderResponse(folder))
            if depth != .zero {
                let below = { (candidate: String) -> Bool in
                    guard candidate != folder, candidate.hasPrefix(folder) else { return false }
                    let rest = candidate.dropFirst(folder.count).dropLast(candidate.hasSuffix("/") ? 1 : 0)
                    return depth == .infinity || !rest.utf8.contains(UInt8(ascii: "/"))
                }
                let children = (folders.filter(below).map { ($0, nil as Int?) } + sizes.keys.filter(below).map { ($0, sizes[$0]) })
                    .sorted { $0.0 < $1.0 }
                for (child, size) in children {
                    responses.append(size.map { fileResponse(child, size: $0) } ?? folderResponse(child))
                }
            }
        }
        let body = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<D:multistatus xmlns:D=\"DAV:\">\n"
            + responses.joined(separator: "\n") + "\n</D:multistatus>\n"
        return Array(body.utf8)
    }

    /// A whole HTTP response to a `PROPFIND` of `target` with that `Depth` header: 207 with the
    /// listing, 404, or 400 for a `Depth` that is not 0, 1 or infinity.
    package func propfindResponse(target: String, depthHeader: String?) -> HTTPResponse {
        let path = Self.path(ofTarget: target)
        guard let depth = Depth(header: depthHeader) else {
            return HTTPResponse(status: 400, headers: ["Content-Type": "text/plain"], body: Array(Depth.refusal(depthHeader ?? "").utf8))
        }
        guard let body = multistatus(for: path, depth: depth) else {
            return HTTPResponse(status: 404, headers: ["Content-Type": "text/plain"], body: Array("\(path): not found\n".utf8))
        }
        return HTTPResponse(status: 207, headers: ["Content-Type": "application/xml; charset=utf-8"], body: body)
    }

    /// The files after creating the empty folder `path`, or `nil` when something is already there.
    package func makingFolder(_ path: String) -> [String: [UInt8]]? {
        guard path != "/", !exists(path) else { return nil }
        var result = files
        result[Self.folder(path)] = []
        return result
    }

    /// The files after deleting `path` (a folder with everything in it), or `nil` when nothing is there.
    package func deleting(_ path: String) -> [String: [UInt8]]? {
        guard exists(path) else { return nil }
        return files.filter { name, _ in !Self.isAtOrBelow(name, path) }
    }

    /// The files after copying (or moving) `source`, a file or a folder with everything in it, to
    /// `destination`, replacing what is there; `nil` when the source is missing, when source and
    /// destination are the same, or when a folder would go inside itself.
    package func copying(_ source: String, to destination: String, removingSource: Bool) -> [String: [UInt8]]? {
        let (folders, sizes) = entries()
        let sourceIsFile = sizes[source] != nil
        guard sourceIsFile || folders.contains(Self.folder(source)), destination != "/" else { return nil }
        let from = sourceIsFile ? source : Self.folder(source)
        let to = sourceIsFile ? (destination.hasSuffix("/") ? String(destination.dropLast()) : destination) : Self.folder(destination)
        guard from != to, sourceIsFile || !to.hasPrefix(from) else { return nil }
        // What is at the destination is replaced (Overwrite: T, the default).
        var result = files.filter { name, _ in !Self.isAtOrBelow(name, to) }
        for (name, bytes) in files {
            let path = FileName.path(name)
            let moved: String
            if sourceIsFile {
                guard path == from else { continue }
                moved = to
            } else {
                guard path.hasPrefix(from) else { continue }
                moved = to + path.dropFirst(from.count)
            }
            if removingSource { result[name] = nil }
            result[moved] = bytes
        }
        return result
    }

    private static let lastModified = "Mon, 01 Jan 2024 12:00:00 GMT"

    private func folderResponse(_ path: String) -> String {
        "<D:response><D:href>\(XMLNode.escaped(path))</D:href><D:propstat><D:prop><D:resourcetype><D:collection/></D:resourcetype>"
            + "<D:getlastmodified>\(Self.lastModified)</D:getlastmodified></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>"
    }

    private func fileResponse(_ path: String, size: Int) -> String {
        let etag = String(Self.fnv1a(FileName.stored(path, in: files).flatMap { files[$0] } ?? []), radix: 16)
        return "<D:response><D:href>\(XMLNode.escaped(path))</D:href><D:propstat><D:prop><D:resourcetype/>"
            + "<D:getcontentlength>\(size)</D:getcontentlength><D:getcontenttype>\(WebDAVHandler.contentType(of: path))</D:getcontenttype>"
            + "<D:getlastmodified>\(Self.lastModified)</D:getlastmodified><D:getetag>\"\(etag)\"</D:getetag></D:prop>"
            + "<D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>"
    }

    /// A content hash for ETags: the same bytes always give the same tag.
    private static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}
