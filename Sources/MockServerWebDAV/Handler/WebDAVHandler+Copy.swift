import Foundation
import MockServerFileSystem
import MockServerHTTP
import MockServerCore

extension WebDAVHandler {
    mutating func copyOrMove(_ path: String, move: Bool) -> HTTPMockResponse {
        guard let destinationHeader = request.headers["Destination"] else { return Self.plain(400, "\(request.method) needs a Destination header\n") }
        // An absolute URI or an absolute path (RFC 4918 §10.3); a URI on another server is 502,
        // since this one cannot copy there (RFC 4918 §9.8.4, §9.9.4).
        if let destinationOrigin = WebDAVOrigin(absoluteURI: destinationHeader) {
            let own = WebDAVOrigin(absoluteURI: request.target) ?? WebDAVOrigin(scheme: nil, authority: Substring(request.headers["Host"] ?? ""))
            guard own.serves(destinationOrigin) else {
                return Self.plain(502, "the Destination \(destinationHeader) is on another server (\(destinationOrigin.description)) than the request's"
                                  + " (\(own.description)): \(request.method) only works within this one\n")
            }
        } else if !destinationHeader.hasPrefix("/") || destinationHeader.hasPrefix("//") {
            return Self.plain(400, "the Destination \(destinationHeader) is neither an absolute URI nor an absolute path\n")
        }
        // nginx's rule for a request target holds for the Destination too: its .. segments stay
        // inside the root, and it holds no %00 (FilePaths would clamp them to the root instead).
        let destinationBytes = Array(destinationHeader.utf8)
        var destinationPathBytes = destinationBytes[...]
        if WebDAVOrigin(absoluteURI: destinationHeader) != nil, let scheme = destinationBytes.firstRange(of: Array("://".utf8)) {
            let authority = destinationBytes[scheme.upperBound...]
            destinationPathBytes = authority[(authority.firstIndex(of: UInt8(ascii: "/")) ?? authority.endIndex)...]
        }
        if let problem = HTTPSyntax.pathProblem(destinationPathBytes) {
            return Self.plain(400, "the Destination \(destinationHeader) is refused: its path \(problem)\n")
        }
        let overwriteHeader = request.headers["Overwrite"]?.trimmingSpaces()
        if let overwriteHeader, overwriteHeader.uppercased() != "T" && overwriteHeader.uppercased() != "F" {
            return Self.plain(400, "the Overwrite header is T or F (RFC 4918 section 10.6), not \"\(overwriteHeader)\"\n")
        }
        guard let destinationPath = FilePaths.path(ofTarget: destinationHeader) else {
            return Self.plain(400, "the Destination \(destinationHeader) is not a valid URI\n")
        }
        guard let kind = index.kind(of: path) else { return Self.plain(404, "\(path): not found\n") }
        let source = kind == .folder ? FilePaths.folder(path) : FilePaths.file(path)
        let destination = kind == .folder ? FilePaths.folder(destinationPath) : FilePaths.file(destinationPath)
        guard source != destination else { return Self.plain(403, "the source and destination are the same\n") }
        if kind == .folder, destination.hasPrefix(source) { return Self.plain(403, "a collection cannot go inside itself\n") }
        if source == "/" { return Self.plain(403, "the root cannot be \(move ? "moved" : "copied")\n") }
        let overwrite = overwriteHeader?.uppercased() != "F"
        let shallow: Bool
        switch depth {
        case .infinity: shallow = false
        case .zero where !move: shallow = true
        default: return Self.plain(400, "the Depth header of a \(request.method) is \(move ? "infinity" : "0 or infinity"), not \(request.headers["Depth"] ?? "")\n")
        }
        guard index.kind(of: FilePaths.parent(destination)) == .folder else {
            return Self.plain(409, "the parent of \(destination) is not a collection\n")
        }
        let destinationExists = index.kind(of: destination) != nil || index.kind(of: FilePaths.file(destination)) != nil
            || index.kind(of: FilePaths.folder(destination)) != nil
        if destinationExists && !overwrite { return Self.plain(412, "\(destination) exists and Overwrite is F\n") }
        if let failure = conditionFailure(for: path) { return failure }
        var touched = destinationExists ? index.subtree(of: destination) + index.subtree(of: FilePaths.file(destination)) : [destination]
        if move { touched += index.subtree(of: source) }
        if let locked = lockFailure(touching: touched) { return locked }

        if destinationExists {
            remove(index.kind(of: FilePaths.file(destination)) != nil ? FilePaths.file(destination) : destination)
        }
        let copies = store.copy(source, to: destination, move: move, shallow: shallow, at: now) ?? []
        for copy in copies { state.properties[copy.to] = state.properties[copy.from] }
        if move { forget(Set(copies.map(\.from))) }
        index = store.tree
        return HTTPMockResponse(status: destinationExists ? 204 : 201,
                            headers: destinationExists ? [:] : ["Location": FilePaths.href(destination), "Content-Length": "0"])
    }
}
