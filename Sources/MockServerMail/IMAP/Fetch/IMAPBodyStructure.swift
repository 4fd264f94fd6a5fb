/// Writes BODY and BODYSTRUCTURE (RFC 3501 §7.4.2, RFC 9051 §7.5.2) for a message or a part of a
/// parsed ``MIMETree``, as Dovecot writes them.
///
/// Types, subtypes, parameters, encodings and dispositions keep the case they are written in;
/// a text part without a `charset` parameter gets `("charset" "us-ascii")` added at the end; a part
/// without a Content-Transfer-Encoding says `"7bit"`; sizes are the body's octets and lines its
/// LF count. A message/rfc822 part carries its message's envelope, structure and line count; when
/// its body could not be opened (a transfer encoding other than 7bit, 8bit or binary), an envelope
/// of `NIL`s and an empty text part, as Dovecot answers. A multipart in which no part was found
/// (no delimiter, or the nesting limit) holds one empty text part. With `extended`, extension data
/// follows: for a multipart its parameters, disposition, language and location; for any other part
/// its MD5, disposition, language and location.
///
/// The recursion is as deep as the tree, which ``MIMELimits/maximumDepth`` bounds.
enum IMAPBodyStructure {
    /// Writes the structure of the part at `index` of `tree`, whose bytes are `bytes`.
    static func write(_ index: Int, of tree: MIMETree, in bytes: UnsafeRawBufferPointer, extended: Bool, to output: inout IMAPOutput) {
        let part = tree.parts[index]
        let contentType = IMAPBodyParameters(IMAPHeaderText.first("content-type", of: part.headers, in: bytes) ?? [])
        let (type, subtype) = mediaType(of: part, written: contentType.value)
        if part.mediaType.hasPrefix("multipart/") {
            output.byte(0x28)
            if case .multipart(let children) = part.structure, !children.isEmpty {
                for child in children { write(child, of: tree, in: bytes, extended: extended, to: &output) }
            } else {
                writeEmptyText(extended: extended, to: &output)
            }
            output.byte(0x20)
            output.string(subtype)
            if extended {
                output.byte(0x20)
                IMAPBodyParameters.write(contentType.parameters, to: &output)
                writeDispositionLanguageLocation(part, in: bytes, to: &output)
            }
            output.byte(0x29)
            return
        }
        output.byte(0x28)
        output.string(type)
        output.byte(0x20)
        output.string(subtype)
        output.byte(0x20)
        var parameters = contentType.parameters
        let isText = type.map(IMAPBodyParameters.lowercased).elementsEqual("text".utf8)
        if isText, !contentType.has("charset") { parameters.append((Array("charset".utf8), Array("us-ascii".utf8))) }
        IMAPBodyParameters.write(parameters, to: &output)
        output.byte(0x20)
        output.nstring(IMAPHeaderText.first("content-id", of: part.headers, in: bytes))
        output.byte(0x20)
        output.nstring(IMAPHeaderText.first("content-description", of: part.headers, in: bytes))
        output.byte(0x20)
        output.string(IMAPHeaderText.first("content-transfer-encoding", of: part.headers, in: bytes) ?? Array("7bit".utf8))
        output.byte(0x20)
        output.number(part.bodyRange.count)
        if part.mediaType == "message/rfc822" || part.mediaType == "message/global" {
            output.byte(0x20)
            if case .message(let child) = part.structure {
                IMAPEnvelope.write(headers: tree.parts[child].headers, in: bytes, to: &output)
                output.byte(0x20)
                write(child, of: tree, in: bytes, extended: extended, to: &output)
            } else {
                IMAPEnvelope.writeEmpty(to: &output)
                output.byte(0x20)
                writeEmptyText(extended: extended, to: &output)
            }
            output.byte(0x20)
            output.number(IMAPHeaderText.lineCount(bytes, in: part.bodyRange))
        } else if isText {
            output.byte(0x20)
            output.number(IMAPHeaderText.lineCount(bytes, in: part.bodyRange))
        }
        if extended {
            output.byte(0x20)
            output.nstring(IMAPHeaderText.first("content-md5", of: part.headers, in: bytes))
            writeDispositionLanguageLocation(part, in: bytes, to: &output)
        }
        output.byte(0x29)
    }

    /// The type and subtype as written, when they are the part's media type; the media type the
    /// parser chose otherwise (a default for a missing or malformed Content-Type).
    private static func mediaType(of part: MIMEPart, written: [UInt8]) -> (type: [UInt8], subtype: [UInt8]) {
        if written.map(IMAPBodyParameters.lowercased).elementsEqual(part.mediaType.utf8),
           let slash = written.firstIndex(of: UInt8(ascii: "/")) {
            return (Array(written[..<slash]), Array(written[(slash + 1)...]))
        }
        let pieces = part.mediaType.split(separator: "/", maxSplits: 1)
        return (Array((pieces.first ?? "text").utf8), Array((pieces.count > 1 ? pieces[1] : "plain").utf8))
    }

    /// An empty text/plain part, what Dovecot puts where a part could not be read.
    private static func writeEmptyText(extended: Bool, to output: inout IMAPOutput) {
        output.text(extended ? "(\"text\" \"plain\" (\"charset\" \"us-ascii\") NIL NIL \"7bit\" 0 0 NIL NIL NIL NIL)"
                             : "(\"text\" \"plain\" (\"charset\" \"us-ascii\") NIL NIL \"7bit\" 0 0)")
    }

    /// ` disposition language location` of the extension data.
    private static func writeDispositionLanguageLocation(_ part: MIMEPart, in bytes: UnsafeRawBufferPointer, to output: inout IMAPOutput) {
        output.byte(0x20)
        if let raw = IMAPHeaderText.first("content-disposition", of: part.headers, in: bytes) {
            let disposition = IMAPBodyParameters(raw)
            output.byte(0x28)
            output.string(disposition.value)
            output.byte(0x20)
            IMAPBodyParameters.write(disposition.parameters, to: &output)
            output.byte(0x29)
        } else {
            output.text("NIL")
        }
        output.byte(0x20)
        let languages = (IMAPHeaderText.first("content-language", of: part.headers, in: bytes) ?? [])
            .split(separator: UInt8(ascii: ",")).map(IMAPBodyParameters.trimmed).filter { !$0.isEmpty }
        if languages.isEmpty {
            output.text("NIL")
        } else {
            output.byte(0x28)
            for (index, language) in languages.enumerated() {
                if index > 0 { output.byte(0x20) }
                output.string(language)
            }
            output.byte(0x29)
        }
        output.byte(0x20)
        output.nstring(IMAPHeaderText.first("content-location", of: part.headers, in: bytes))
    }
}
