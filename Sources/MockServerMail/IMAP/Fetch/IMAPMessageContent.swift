import Foundation

/// Writes the FETCH items that come from a message's bytes (RFC 3501 §7.4.2, RFC 9051 §7.5.2,
/// RFC 3516): `NAME value` exactly as the response carries it, for the session to put between
/// `* n FETCH (` and `)` with the items it answers itself (UID, FLAGS, INTERNALDATE, MODSEQ).
///
/// Pure: it reads the message's bytes and its ``IMAPMessageSummary`` and writes into an
/// ``IMAPOutput``. Sections are always sent as literals, as Dovecot sends them; a section that does
/// not exist is the empty string `{0}`, as Dovecot answers (RFC 3501 leaves it open).
package struct IMAPMessageContent: Sendable {
    /// A writer.
    package init() {}

    /// Writes `attribute` of the message `raw` (summarized by `summary`) to `output`, or writes
    /// nothing and returns why it cannot be answered.
    package func write(_ attribute: IMAPFetchAttribute, raw: Data, summary: IMAPMessageSummary, to output: inout IMAPOutput) -> IMAPFetchFailure? {
        switch attribute {
        case .uid, .flags, .internalDate, .modSeq:
            return .notMessageContent(attribute)
        case .rfc822Size:
            output.text("RFC822.SIZE ")
            output.number(summary.size)
        case .envelope:
            output.text("ENVELOPE ")
            output.raw(summary.envelope)
        case .body:
            output.text("BODY ")
            output.raw(summary.body)
        case .bodyStructure:
            output.text("BODYSTRUCTURE ")
            output.raw(summary.bodyStructure)
        case .rfc822:
            output.text("RFC822 ")
            writeSection(IMAPSection(), partial: nil, raw: raw, tree: summary.tree, to: &output)
        case .rfc822Header:
            output.text("RFC822.HEADER ")
            writeSection(IMAPSection(text: .header), partial: nil, raw: raw, tree: summary.tree, to: &output)
        case .rfc822Text:
            output.text("RFC822.TEXT ")
            writeSection(IMAPSection(text: .text), partial: nil, raw: raw, tree: summary.tree, to: &output)
        case .bodySection(let section, let partial, _):
            output.text("BODY[")
            output.text(section.description)
            output.byte(UInt8(ascii: "]"))
            writeOrigin(partial, to: &output)
            output.byte(0x20)
            writeSection(section, partial: partial, raw: raw, tree: summary.tree, to: &output)
        case .binary(let part, let partial, _):
            let decoded: [UInt8]
            switch Self.decoded(part, raw: raw, tree: summary.tree) {
            case .success(let bytes): decoded = bytes
            case .failure(let failure): return failure
            }
            output.text("BINARY[")
            output.text(part.map(String.init).joined(separator: "."))
            output.byte(UInt8(ascii: "]"))
            writeOrigin(partial, to: &output)
            output.byte(0x20)
            let slice = decoded[Self.clamp(partial, to: decoded.indices)]
            // RFC 3516 §4.2: content holding NUL goes as a literal8.
            if slice.contains(0) { output.byte(UInt8(ascii: "~")) }
            output.literal(slice)
        case .binarySize(let part):
            let decoded: [UInt8]
            switch Self.decoded(part, raw: raw, tree: summary.tree) {
            case .success(let bytes): decoded = bytes
            case .failure(let failure): return failure
            }
            output.text("BINARY.SIZE[")
            output.text(part.map(String.init).joined(separator: "."))
            output.text("] ")
            output.number(decoded.count)
        }
        return nil
    }

    /// `<offset>` after the section, as the response names a partial (RFC 3501 §7.4.2).
    private func writeOrigin(_ partial: IMAPPartial?, to output: inout IMAPOutput) {
        guard let partial else { return }
        output.byte(UInt8(ascii: "<"))
        output.number(partial.offset)
        output.byte(UInt8(ascii: ">"))
    }

    /// Writes the bytes of `section`, cut to `partial`, as a literal.
    private func writeSection(_ section: IMAPSection, partial: IMAPPartial?, raw: Data, tree: MIMETree, to output: inout IMAPOutput) {
        raw.withUnsafeBytes { bytes in
            switch Self.select(section, tree: tree, in: bytes) {
            case .range(let range):
                output.literal(UnsafeRawBufferPointer(rebasing: bytes[range])[Self.clamp(partial, to: 0..<range.count)])
            case .bytes(let selected):
                output.literal(selected[Self.clamp(partial, to: selected.indices)])
            }
        }
    }

    /// The octets of `indices` that `partial` asks for: from its offset, at most its count, both
    /// clamped to the section (an offset past the end gives none).
    static func clamp(_ partial: IMAPPartial?, to indices: Range<Int>) -> Range<Int> {
        guard let partial else { return indices }
        let start = min(indices.lowerBound + Int(partial.offset), indices.upperBound)
        let end = partial.count.map { min(start + Int($0), indices.upperBound) } ?? indices.upperBound
        return start..<end
    }
}
