import Foundation

/// What a POP3 client fetched, read back from where it delivered it (a Maildir, a folder of one
/// file per message, an mboxrd file) and made comparable: LF line ends, and without the trace
/// fields the client itself adds (`Received:`, `Return-Path:`, mbox's `From ` line), which carry
/// the time of the run and so differ between our server and the control.
enum FetchedMail {
    /// The messages in the files of `folders`, trace fields removed, sorted (clients name their
    /// files by time and counter, so the order of the names is not the order of the fetch).
    static func files(in folders: [URL]) throws -> [String] {
        var messages: [String] = []
        for folder in folders {
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            for name in names where !name.hasPrefix(".") {
                let data = try Data(contentsOf: folder.appendingPathComponent(name))
                messages.append(withoutTrace(String(decoding: data, as: UTF8.self)))
            }
        }
        return messages.sorted()
    }

    /// The messages of an mboxrd file, each without its `From ` separator and trace fields, and
    /// with mboxrd's `>From ` quoting undone, sorted.
    static func mboxrd(_ url: URL) throws -> [String] {
        let text = String(decoding: try Data(contentsOf: url), as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        var messages: [[Substring]] = []
        var previousBlank = true
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if previousBlank, line.hasPrefix("From ") {
                // The blank line before a separator belongs to the mbox, not to the message.
                if var last = messages.popLast() {
                    if last.last?.isEmpty == true { last.removeLast() }
                    messages.append(last)
                }
                messages.append([])
            } else if !messages.isEmpty {
                let unquoted = line.drop { $0 == ">" }.hasPrefix("From ") && line.hasPrefix(">") ? line.dropFirst() : line
                messages[messages.count - 1].append(unquoted)
            }
            previousBlank = line.isEmpty
        }
        // The file ends with the last message's line end and the mbox's blank line.
        if var last = messages.popLast() {
            while last.last?.isEmpty == true { last.removeLast() }
            messages.append(last)
        }
        return messages.map { withoutTrace($0.joined(separator: "\n") + "\n") }.sorted()
    }

    /// `raw` as a client should have delivered it: LF line ends.
    static func expected(_ raws: [String]) -> [String] {
        raws.map { $0.replacingOccurrences(of: "\r\n", with: "\n") }.sorted()
    }

    /// `message` with LF line ends and without the leading trace fields a client adds.
    static func withoutTrace(_ message: String) -> String {
        var lines = message.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)[...]
        while let first = lines.first {
            let lower = first.lowercased()
            guard lower.hasPrefix("received:") || lower.hasPrefix("return-path:") || lower.hasPrefix("delivered-to:") else { break }
            lines = lines.dropFirst()
            while let next = lines.first, next.hasPrefix(" ") || next.hasPrefix("\t") { lines = lines.dropFirst() }
        }
        return lines.joined(separator: "\n")
    }
}
