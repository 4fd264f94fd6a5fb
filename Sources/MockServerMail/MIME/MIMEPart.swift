/// One part of a parsed message: the message itself, a part of a multipart, or the message a
/// message/rfc822 part carries; where its header section and body are, and what they say.
///
/// Parts are numbered as IMAP numbers body sections (RFC 3501 §6.4.5), which is also how Mailpit
/// names them (`PartID`): a multipart's parts are `1`, `2`, … and their parts `2.1`, `2.2`, …; a
/// message that is not multipart has its body as part `1`; the message a message/rfc822 part `3`
/// carries numbers its parts `3.1`, `3.2`, … (its body `3.1` when it is not multipart).
package struct MIMEPart: Sendable {
    /// What the part holds.
    package enum Structure: Sendable, Equatable {
        /// Content: text, an image, an attachment (or a container the limits did not open).
        case leaf
        /// A multipart's parts, by index in the tree.
        case multipart(children: [Int])
        /// The message a message/rfc822 part carries, by index in the tree.
        case message(child: Int)
    }

    /// The number its child parts are numbered under (`""` for the message, `2` for part 2).
    package let containerID: String
    /// Whether this is a message's top (the message, or one a message/rfc822 part carries).
    package let isMessageRoot: Bool
    /// 0 for the message, 1 for its parts, …
    package let depth: Int
    /// The index of the part it is in, nil for the message.
    package let parent: Int?
    /// The part's bytes, its header section included.
    package let range: Range<Int>
    package let headers: MIMEHeaderSection
    /// The media type (`text/plain` where none or a bad one is given: `message/rfc822` in a
    /// multipart/digest) and its parameters.
    package let contentType: MIMEParameterizedValue
    package let disposition: MIMEParameterizedValue?
    package let transferEncoding: MIMETransferEncoding
    package var structure: Structure = .leaf

    /// The part's body, after its header section.
    package var bodyRange: Range<Int> { min(headers.bodyStart, range.upperBound)..<range.upperBound }

    /// The media type, lowercased (`text/plain`).
    package var mediaType: String { contentType.value }

    /// The IMAP section number (`1`, `2.1`); `""` for a multipart message itself.
    package var section: String {
        guard isMessageRoot else { return containerID }
        if case .multipart = structure { return containerID }
        return containerID.isEmpty ? "1" : containerID + ".1"
    }

    /// Whether the part says `Content-Disposition: attachment`.
    package var isAttachment: Bool { disposition?.value == "attachment" }

    /// A part of `bytes[range]`, its header section read.
    package init(bytes: UnsafeRawBufferPointer, range: Range<Int>, containerID: String, isMessageRoot: Bool, depth: Int, parent: Int?,
                 defaultType: String, limits: MIMELimits) {
        self.containerID = containerID
        self.isMessageRoot = isMessageRoot
        self.depth = depth
        self.parent = parent
        self.range = range
        headers = MIMEHeaderSection(reading: bytes, in: range, maximumLength: limits.maximumHeaderLength)
        let type = MIMEParameterizedValue(headers["content-type"] ?? "")
        if type.value.split(separator: "/", omittingEmptySubsequences: false).count == 2, !type.value.hasPrefix("/"), !type.value.hasSuffix("/"),
           !type.value.utf8.contains(UInt8(ascii: " ")) {
            contentType = type
        } else {
            contentType = MIMEParameterizedValue(defaultType, parameters: type.parameters)
        }
        disposition = headers["content-disposition"].map(MIMEParameterizedValue.init)
        transferEncoding = MIMETransferEncoding(headerValue: headers["content-transfer-encoding"])
    }
}
