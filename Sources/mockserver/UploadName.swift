/// Turns a client-chosen upload name into a relative path that stays inside the uploads folder.
enum UploadName {
    /// `name`'s folders and file name with `.`, `..`, empty segments and NUL dropped (`\` counts as
    /// a separator): `../../etc/passwd` becomes `etc/passwd`, `/docs/a.txt` `docs/a.txt`, and `..`
    /// `upload`.
    static func safe(_ name: String) -> String {
        let segments = name.split(whereSeparator: { $0 == "/" || $0 == "\\" })
            .map { $0.filter { $0 != "\0" } }
            .filter { !$0.isEmpty && $0 != "." && $0 != ".." }
        return segments.isEmpty ? "upload" : segments.joined(separator: "/")
    }
}
