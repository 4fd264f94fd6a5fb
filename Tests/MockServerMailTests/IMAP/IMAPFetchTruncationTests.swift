import Foundation
import MockServerMail
import Testing

/// Every fixture cut short at forty places (a header cut mid-field, a multipart without its close
/// delimiter, a base64 body cut mid-quantum) still gives a summary, and every content item of it is
/// written whole: a literal's announced size is the number of bytes after it.
@Suite("IMAP FETCH on cut messages")
struct IMAPFetchTruncationTests {
    /// Sections over every part number of three levels, every text kind, and partials.
    static let attributes: [IMAPFetchAttribute] = {
        var parts: [[Int]] = [[]]
        for first in 1...3 {
            parts.append([first])
            for second in 1...2 {
                parts.append([first, second])
                parts.append([first, second, 1])
            }
        }
        var attributes: [IMAPFetchAttribute] = [.rfc822, .rfc822Header, .rfc822Text, .envelope, .body, .bodyStructure, .rfc822Size]
        let kinds: [IMAPSection.Kind?] = [nil, .header, .text, .headerFields(["Subject", "content-type"]), .headerFieldsNot(["from"])]
        for part in parts {
            for kind in kinds {
                attributes.append(.bodySection(IMAPSection(part: part, text: kind), partial: nil, peek: true))
            }
            if !part.isEmpty { attributes.append(.bodySection(IMAPSection(part: part, text: .mime), partial: nil, peek: true)) }
            attributes.append(.bodySection(IMAPSection(part: part), partial: IMAPPartial(offset: 3, count: 7), peek: true))
            attributes.append(.binary(part: part, partial: nil, peek: true))
            attributes.append(.binarySize(part: part))
        }
        return attributes
    }()

    /// Whether `bytes` (an item whose value is one literal) is `NAME {n}\r\n` or `NAME ~{n}\r\n`
    /// followed by exactly n bytes.
    static func literalIsWhole(_ bytes: [UInt8]) -> Bool {
        guard let open = bytes.firstIndex(of: UInt8(ascii: "{")),
              let close = bytes[open...].firstIndex(of: UInt8(ascii: "}")),
              let size = Int(String(decoding: bytes[(open + 1)..<close], as: UTF8.self)) else { return false }
        return bytes.count - (close + 3) == size && bytes[close + 1] == 0x0D && bytes[close + 2] == 0x0A
    }

    /// Whether the item's value is one literal.
    static func isLiteral(_ attribute: IMAPFetchAttribute) -> Bool {
        switch attribute {
        case .rfc822, .rfc822Header, .rfc822Text, .bodySection, .binary: true
        default: false
        }
    }

    @Test("Cut fixtures: every item written, literals whole")
    func cutFixtures() throws {
        var written = 0
        for folder in ["corpus", "imap"] {
            let directory = IMAPFetchDovecotTests.fixtures.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() where name.hasSuffix(".eml") {
                let whole = try Data(contentsOf: directory.appendingPathComponent(name))
                for cut in stride(from: 0, through: whole.count, by: max(1, whole.count / 40)) {
                    let raw = whole.prefix(cut)
                    let summary = IMAPMessageSummary(raw: raw)
                    #expect(summary.size == cut)
                    for attribute in Self.attributes {
                        var output = IMAPOutput()
                        if let failure = IMAPMessageContent().write(attribute, raw: raw, summary: summary, to: &output) {
                            #expect(failure.code == "UNKNOWN-CTE", "\(name) cut at \(cut): \(attribute)")
                            #expect(output.bytes.isEmpty)
                            continue
                        }
                        written += 1
                        #expect(!Self.isLiteral(attribute) || Self.literalIsWhole(output.bytes), "\(name) cut at \(cut): \(attribute)")
                        #expect(!output.bytes.isEmpty)
                    }
                }
            }
        }
        #expect(written > 100_000)
    }
}
