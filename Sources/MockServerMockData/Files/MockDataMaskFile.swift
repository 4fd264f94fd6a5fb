import Foundation
import MockServerHTTP

/// The `.mockserver-mask` file a recording leaves in a mock-data folder when it masked names beyond
/// the standard ones (`mockserver record --mask-query`, `--mask-form-field`, `--mask-json-field`),
/// so that a replay masks a request with them too before it looks it up.
///
/// One name a line, after its kind: `query NAME`, `form NAME` or `json NAME`. Blank lines and
/// lines starting with `#` are skipped; so is a line of another kind (a later version's). The
/// folder ignores the file as a response: its name has neither `.http` nor `.json`.
package enum MockDataMaskFile {
    /// The file's name in the folder.
    package static let name = ".mockserver-mask"

    /// The names the file in `folder` lists, or `nil` when it has none (or cannot be read).
    package static func read(in folder: URL) -> HTTPRequestMask? {
        guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) else { return nil }
        var mask = HTTPRequestMask()
        for line in String(decoding: data, as: UTF8.self).split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let words = line.split(separator: " ", maxSplits: 1)
            guard words.count == 2, !line.hasPrefix("#") else { continue }
            let value = String(words[1])
            switch words[0] {
            case "query": mask.queryParameters.append(value)
            case "form": mask.formFields.append(value)
            case "json": mask.jsonFields.append(value)
            default: continue
            }
        }
        return mask.isEmpty ? nil : mask
    }

    /// Writes the file in `folder` with `mask`'s names and those it already listed; nothing when
    /// there are none.
    ///
    /// - Throws: the error of the write.
    package static func write(_ mask: HTTPRequestMask, in folder: URL) throws {
        let all = read(in: folder).map { $0.adding(mask) } ?? mask
        guard !all.isEmpty else { return }
        var text = "# Written by mockserver record: the names it masked beyond the standard ones, which a replay masks too.\n"
        for (kind, names) in [("query", all.queryParameters), ("form", all.formFields), ("json", all.jsonFields)] {
            for name in names { text += "\(kind) \(name)\n" }
        }
        try Data(text.utf8).write(to: folder.appendingPathComponent(name), options: .atomic)
    }
}
