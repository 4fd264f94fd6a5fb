/// A message's parts, parsed within limits: the message is part 0, and every part lists its own.
///
/// Parts are opened from a work list, not by recursion: a message nested 100,000 deep costs a list
/// entry per part the limits let through, never a stack frame. Each multipart body is scanned once for
/// its delimiters, so the whole parse reads each byte at most once per level of nesting (at most
/// `maximumDepth` times). Past a limit, the part that would pass it stays a leaf (its bytes unparsed)
/// or is left out, and `isTruncated` says so.
package struct MIMETree: Sendable {
    package private(set) var parts: [MIMEPart]
    /// Whether a limit stopped the parser (a part not opened or not listed, a header cut).
    package private(set) var isTruncated = false

    /// Parses `bytes` within `limits`.
    package init(parsing bytes: UnsafeRawBufferPointer, limits: MIMELimits) {
        let root = MIMEPart(bytes: bytes, range: 0..<bytes.count, containerID: "", isMessageRoot: true, depth: 0, parent: nil,
                            defaultType: "text/plain", limits: limits)
        parts = [root]
        isTruncated = root.headers.isTruncated
        var work = [0]
        while let index = work.popLast() {
            let part = parts[index]
            let type = part.mediaType
            if type.hasPrefix("multipart/"), let boundary = part.contentType.parameters["boundary"], !boundary.isEmpty {
                guard part.depth < limits.maximumDepth else {
                    isTruncated = true
                    continue
                }
                let found = MIMEBoundaryScanner.parts(of: bytes, in: part.bodyRange, boundary: boundary)
                var children: [Int] = []
                for (number, range) in found.parts.enumerated() {
                    guard parts.count < limits.maximumParts else {
                        isTruncated = true
                        break
                    }
                    let id = part.containerID.isEmpty ? "\(number + 1)" : "\(part.containerID).\(number + 1)"
                    let child = MIMEPart(bytes: bytes, range: range, containerID: id, isMessageRoot: false, depth: part.depth + 1, parent: index,
                                         defaultType: type == "multipart/digest" ? "message/rfc822" : "text/plain", limits: limits)
                    if child.headers.isTruncated { isTruncated = true }
                    children.append(parts.count)
                    parts.append(child)
                }
                parts[index].structure = .multipart(children: children)
                work.append(contentsOf: children.reversed())
            } else if type == "message/rfc822" || type == "message/global", part.transferEncoding == .identity {
                guard part.depth < limits.maximumDepth, parts.count < limits.maximumParts else {
                    isTruncated = true
                    continue
                }
                let child = MIMEPart(bytes: bytes, range: part.bodyRange, containerID: part.section, isMessageRoot: true, depth: part.depth + 1,
                                     parent: index, defaultType: "text/plain", limits: limits)
                if child.headers.isTruncated { isTruncated = true }
                parts[index].structure = .message(child: parts.count)
                parts.append(child)
                work.append(parts.count - 1)
            }
        }
    }

    /// The first part that Python's `get_body((subtype,))` would choose: a `text/<subtype>` part not
    /// marked as an attachment, found depth first through multiparts, of a multipart/related only its
    /// root (the part its `start` parameter names, else its first); not inside attached messages.
    package func body(subtype: String) -> Int? {
        var work = [0]
        while let index = work.popLast() {
            let part = parts[index]
            if part.isAttachment { continue }
            let type = part.mediaType.split(separator: "/", maxSplits: 1)
            guard type.count == 2 else { continue }
            if type[0] == "text" {
                if type[1] == subtype { return index }
                continue
            }
            guard type[0] == "multipart", case .multipart(let children) = part.structure else { continue }
            if type[1] != "related" {
                work.append(contentsOf: children.reversed())
                continue
            }
            var root: Int?
            if let start = part.contentType.parameters["start"], !start.isEmpty {
                root = children.first { parts[$0].headers["content-id"]?.trimmingMIMESpaces == start }
            }
            if let root = root ?? children.first { work.append(root) }
        }
        return nil
    }

    /// The leaves in document order: parts that are not multiparts, an attached message as one leaf
    /// (its own parts not listed).
    package var leaves: [Int] {
        var result: [Int] = []
        var work = [0]
        while let index = work.popLast() {
            if case .multipart(let children) = parts[index].structure {
                work.append(contentsOf: children.reversed())
            } else {
                result.append(index)
            }
        }
        return result
    }

    /// The part whose section number (`MIMEPart.section`) is `section`.
    package func part(section: String) -> Int? {
        parts.firstIndex { $0.section == section }
    }
}
