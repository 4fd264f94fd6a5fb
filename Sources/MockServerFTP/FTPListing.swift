/// Directory listings built from file names and sizes, as FTP servers send them.
package enum FTPListing {
    /// `ls -l` lines, sorted by name, CRLF-terminated (what `LIST` sends).
    package static func long(_ files: [String: Int]) -> [UInt8] {
        Array(files.keys.sorted().map { name in
            let size = String(files[name] ?? 0)
            let padded = String(repeating: " ", count: max(0, 12 - size.count)) + size
            return "-rw-r--r--   1 mock     mock     \(padded) Jan 01 12:00 \(name)\r\n"
        }.joined().utf8)
    }

    /// One name a line, sorted, CRLF-terminated (what `NLST` sends).
    package static func names(_ files: [String: Int]) -> [UInt8] {
        Array(files.keys.sorted().map { "\($0)\r\n" }.joined().utf8)
    }
}
