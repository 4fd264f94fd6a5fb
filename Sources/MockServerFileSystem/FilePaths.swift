import MockServerCore

/// Decoded paths of the server's files: percent-decoded, dot segments
/// resolved, never above `/`. A folder path ends in `/`.
package enum FilePaths {
    /// The decoded path that a path (with a query or fragment, percent-encoded) names; `nil` when
    /// it holds NUL or bad percent-encoding. A protocol that takes absolute URIs cuts off the scheme
    /// and authority first.
    package static func path(ofReference reference: Substring) -> String? {
        var text = reference
        if let end = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = text[..<end] }
        guard let decoded = decode(text) else { return nil }
        return resolved(decoded)
    }

    /// The decoded path that a request target names: a path, or an absolute URI
    /// (`scheme://authority/path`, as WebDAV's `Destination` and a proxy's request give it) whose
    /// scheme and authority are cut off; `nil` when it holds NUL or bad percent-encoding.
    package static func path(ofTarget target: String) -> String? {
        path(ofReference: AbsoluteURI.pathOnward(of: Substring(target)))
    }

    /// `path` with a leading `/`, `.` and `..` segments resolved (never above `/`) and empty ones
    /// dropped; a trailing `/` stays.
    package static func resolved(_ path: String) -> String {
        resolvedASCII(path) ?? resolvedByCharacters(path)
    }

    /// ``resolved(_:)`` in one walk over the bytes of an ASCII `path`; `nil` for any other, where a
    /// combining mark after a `/` makes one character of the two, which is no separator.
    private static func resolvedASCII(_ path: String) -> String? {
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        // The path resolved so far: `/`, or `/a/b` without a trailing `/`.
        var output: [UInt8] = [slash]
        output.reserveCapacity(path.utf8.count + 2)
        // Where `output` ended before the segment being read (and its `/`), and that segment's length.
        var segmentBegin = 1
        var length = 0
        func endSegment() {
            if length == 1 && output[output.count - 1] == dot {
                output.removeSubrange(segmentBegin...)
            } else if length == 2 && output[output.count - 1] == dot && output[output.count - 2] == dot {
                output.removeSubrange(segmentBegin...)
                // The segment before it goes too; the root stays.
                if let previous = output.lastIndex(of: slash), output.count > 1 { output.removeSubrange(max(previous, 1)...) }
            }
            length = 0
        }
        for byte in path.utf8 {
            guard byte < 0x80 else { return nil }
            if byte == slash {
                endSegment()
                continue
            }
            if length == 0 {
                segmentBegin = output.count
                if output.count > 1 { output.append(slash) }
            }
            output.append(byte)
            length += 1
        }
        endSegment()
        if path.utf8.last == slash && output.count > 1 { output.append(slash) }
        return String(decoding: output, as: UTF8.self)
    }

    /// ``resolved(_:)`` over the characters of any `path`.
    private static func resolvedByCharacters(_ path: String) -> String {
        var segments: [Substring] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch segment {
            case ".": continue
            case "..": _ = segments.popLast()
            default: segments.append(segment)
            }
        }
        let trailing = path.hasSuffix("/") && !segments.isEmpty
        return "/" + segments.joined(separator: "/") + (trailing ? "/" : "")
    }

    /// A stored file name as a path (names from `--files DIR` have no leading `/`). Stored names
    /// are decoded already (every protocol stores under the path it decoded, `{"save": …}`
    /// included), so a `%` in one is a `%`: decoding again would read `/a%41`, stored for
    /// `PUT /a%2541`, as `/aA`.
    package static func path(ofStoredName name: String) -> String {
        resolved(FileName.path(name))
    }

    /// The name a file named by `target` (a path or an absolute URI, percent-encoded, as a request
    /// gives it to `{"save": …}`) is stored under: its decoded path; `target` as it is when it does
    /// not decode, or when it has no `/` at all and so is a plain name (`upload.bin`).
    package static func storedName(ofTarget target: String) -> String {
        guard target.contains("/") else { return target }
        return path(ofTarget: target) ?? target
    }

    private static func decode(_ text: Substring) -> String? {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text.utf8.contains(0) ? nil : String(text) }
        guard let bytes = PercentCoding.decode(text.utf8, strictness: .strict), !bytes.contains(0),
              let decoded = String(exactUTF8: bytes) else { return nil }
        return decoded
    }

    /// `path` ending in `/`.
    package static func folder(_ path: String) -> String { path.hasSuffix("/") ? path : path + "/" }

    /// `path` without a trailing `/` (`/` stays).
    package static func file(_ path: String) -> String { path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path }

    /// The folder that holds `path` (`/` for `/` itself).
    package static func parent(_ path: String) -> String {
        let trimmed = file(path)
        guard trimmed != "/", let slash = trimmed.lastIndex(of: "/") else { return "/" }
        return String(trimmed[...slash])
    }

    /// The last segment of `path`.
    package static func lastSegment(_ path: String) -> String {
        String(file(path).split(separator: "/").last ?? "")
    }

    /// `path` as an href: every byte but letters, digits, `-._~` and `/` percent-encoded.
    package static func href(_ path: String) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var output: [UInt8] = []
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                output.append(byte)
            default:
                output += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]]
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
