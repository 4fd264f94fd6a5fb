import Foundation
import MockServerMail
import Testing
import TestSupport

/// The MIME corpus (Fixtures/corpus/*.eml: real-shaped messages) read by `MailMessage` and by Python's
/// `email` package (`policy.default`, Tests/Python/mime_corpus.py), compared field by field: the
/// subject, the addresses, the message ID, the date, the text and HTML bodies, and each attachment's file name,
/// content type, decoded size and content ID.
@Suite("MIME corpus against Python's email package", .offPool)
struct MIMECorpusTests {
    static let corpus = Tools.repositoryRoot.appendingPathComponent("Tests/MockServerMailTests/Fixtures/corpus")
    static let script = Tools.repositoryRoot.appendingPathComponent("Tests/Python/mime_corpus.py")

    /// Where Python and `MailMessage` differ by design, by `file` and field (`attachments[0].size`),
    /// and why. An entry whose field agrees fails the test, so that the list stays true.
    static let exceptions: [String: String] = [
        // Python keeps an attached message parsed and gives no decoded payload (`None`); ours is the
        // size of the attached message's bytes, as Mailpit's `Size`.
        "12-forward-rfc822.eml attachments[0].size": "message/rfc822: Python gives no size",
        "29-digest.eml attachments[0].size": "message/rfc822: Python gives no size",
        "29-digest.eml attachments[1].size": "message/rfc822: Python gives no size",
        // RFC 2047 §6.2: white space between adjacent encoded words is not displayed. Python drops it
        // in unstructured fields (the subjects here agree) but keeps it in a display name.
        "20-display-names.eml to": "Python keeps the space between two encoded words of a display name",
        // RFC 2046 §5.1.1: two delimiters in a row enclose an empty part (text/plain, no fields).
        // Python drops it; ours lists it (an IMAP server numbers it), so it is the first text/plain
        // part, the text body, and the empty text/plain part after it becomes an attachment.
        "30-empty-parts.eml attachments": "Python drops the empty part between two delimiters",
    ]

    /// The corpus's files, sorted.
    static func files() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: corpus, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "eml" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// The JSON of `value`, for a readable difference.
    static func show(_ value: Any?) -> String {
        guard let value, !(value is NSNull) else { return "nil" }
        if let string = value as? String { return string.debugDescription }
        if let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed]) {
            return String(decoding: data, as: UTF8.self)
        }
        return "\(value)"
    }

    @Test("the corpus has at least 25 messages, and each reads as Python's email reads it, field by field", .enabled(if: Tools.hasPython))
    func agreesWithPython() throws {
        let files = try Self.files()
        #expect(files.count >= 25, "the corpus has \(files.count) messages")
        let result = try Tools.run("python3", [Self.script.path] + files.map(\.path), timeout: 120)
        try #require(result.status == 0, "mime_corpus.py failed: \(result.stderr)")
        let python = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: [String: Any]])
        var used: Set<String> = []
        func compare(_ file: String, _ field: String, ours: Any?, theirs: Any?) {
            let ourText = Self.show(ours), theirText = Self.show(theirs)
            let key = "\(file) \(field)"
            if Self.exceptions[key] != nil {
                used.insert(key)
                if ourText == theirText { Issue.record("\(key) is listed as an exception, but both read \(ourText)") }
                return
            }
            if ourText != theirText { Issue.record("\(file): \(field): ours \(ourText), Python's \(theirText)") }
        }
        for file in files {
            let name = file.lastPathComponent
            guard let expected = python[name] else {
                Issue.record("\(name): Python gave nothing")
                continue
            }
            let message = MailMessage(try Data(contentsOf: file))
            compare(name, "subject", ours: message.subject, theirs: expected["subject"])
            for (field, addresses) in [("from", message.from), ("to", message.to), ("cc", message.cc), ("bcc", message.bcc)] {
                compare(name, field, ours: addresses.map { [$0.name, $0.address] }, theirs: expected[field])
            }
            compare(name, "messageID", ours: message.messageID, theirs: expected["messageID"])
            compare(name, "date", ours: message.date?.timeIntervalSince1970, theirs: expected["date"])
            compare(name, "text", ours: message.text, theirs: expected["text"])
            compare(name, "html", ours: message.html, theirs: expected["html"])
            let attachments = expected["attachments"] as? [[String: Any]] ?? []
            if Self.exceptions["\(name) attachments"] != nil {
                // The whole list differs by design: held different, not field by field.
                let ours = message.attachments.map { attachment -> [String: Any] in
                    ["filename": attachment.fileName.map { $0 as Any } ?? NSNull(), "contentType": attachment.contentType, "size": attachment.size,
                     "contentID": attachment.contentID.map { $0 as Any } ?? NSNull()]
                }
                compare(name, "attachments", ours: ours, theirs: attachments)
                continue
            }
            compare(name, "attachments.count", ours: message.attachments.count, theirs: attachments.count)
            for (index, (ours, theirs)) in zip(message.attachments, attachments).enumerated() {
                compare(name, "attachments[\(index)].filename", ours: ours.fileName, theirs: theirs["filename"])
                compare(name, "attachments[\(index)].contentType", ours: ours.contentType, theirs: theirs["contentType"])
                compare(name, "attachments[\(index)].size", ours: ours.size, theirs: theirs["size"])
                compare(name, "attachments[\(index)].contentID", ours: ours.contentID, theirs: theirs["contentID"])
            }
        }
        for key in Set(Self.exceptions.keys).subtracting(used).sorted() {
            Issue.record("the exception \(key) names no field of the corpus")
        }
    }

    @Test("every message of the corpus parses within the limits, and an attachment's data is its decoded size")
    func withinLimits() throws {
        for file in try Self.files() {
            let message = MailMessage(try Data(contentsOf: file))
            #expect(!message.isTruncated, "\(file.lastPathComponent) is truncated")
            for attachment in message.attachments {
                #expect(attachment.data.count == attachment.size, "\(file.lastPathComponent) part \(attachment.partID)")
            }
        }
    }
}
