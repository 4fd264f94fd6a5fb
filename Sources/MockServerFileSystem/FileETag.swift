/// The entity tag of the server's files, whichever protocol or path serves them: one hash, one
/// format, so that a `GET`, a `HEAD` and a `PROPFIND` of one file agree.
package enum FileETag {
    /// The strong entity tag of a file's bytes, quoted: their FNV-1a hash and their length, in
    /// hexadecimal (`"af63bd4c8601b7df-3"`), so that equal contents agree.
    package static func of(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return "\"\(String(hash, radix: 16))-\(String(bytes.count, radix: 16))\""
    }

    /// The entity tag of what is at `path` in `tree` over `files`: a file's strong tag, or for a
    /// folder a weak tag (`W/"…"`) that changes with the paths and contents of everything below it;
    /// `nil` when nothing is there.
    package static func of(_ path: String, in tree: FileTree, files: [String: [UInt8]]) -> String? {
        switch tree.kind(of: path) {
        case .file(let name)?: return of(files[name] ?? [])
        case .folder?:
            let listing = tree.subtree(of: path).map { $0 + (tree.files[$0].flatMap { files[$0] }.map(of) ?? "") }
            return "W/" + of(Array(listing.joined(separator: "\n").utf8))
        case nil: return nil
        }
    }
}
