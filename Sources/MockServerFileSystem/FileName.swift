/// How request paths name the server's files: `/a.txt` and `a.txt` (as `mockserver --files DIR` names
/// files) are the same file. The one place this rule is written; file selection, uploads and the
/// WebDAV tree all follow it.
package enum FileName {
    /// `name` as a path, with a leading `/`.
    package static func path(_ name: String) -> String { name.hasPrefix("/") ? name : "/" + name }

    /// The key under which `name` is stored in `files`: `name` itself, or for a path `/x`, the key `x`;
    /// `nil` when neither is there.
    package static func stored(_ name: String, in files: [String: [UInt8]]) -> String? {
        if files[name] != nil { return name }
        guard name.hasPrefix("/") else { return nil }
        let bare = String(name.dropFirst())
        return files[bare] != nil ? bare : nil
    }
}
