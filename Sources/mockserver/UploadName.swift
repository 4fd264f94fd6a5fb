/// Turns a client-chosen upload name into a plain file name that stays inside the uploads folder.
enum UploadName {
    /// The last path component of `name`, with `/`, `\` and NUL impossible and `.`/`..` refused:
    /// `../../etc/passwd` becomes `passwd`, `..` becomes `upload`.
    static func safe(_ name: String) -> String {
        let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" || $0 == "\0" }).last.map(String.init) ?? ""
        return last.isEmpty || last == "." || last == ".." ? "upload" : last
    }
}
