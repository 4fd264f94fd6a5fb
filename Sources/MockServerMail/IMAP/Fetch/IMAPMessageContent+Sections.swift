import Foundation

extension IMAPMessageContent {
    /// The bytes a section names: a range of the message, or bytes put together (header fields).
    enum Selection: Equatable {
        /// These bytes of the message.
        case range(Range<Int>)
        /// Bytes put together from the message (chosen header fields).
        case bytes([UInt8])
    }

    /// The part that `numbers` name (RFC 3501 §6.4.5), or nil when there is none.
    ///
    /// A multipart's parts are numbered from 1; a message/rfc822 part's numbers go on into the
    /// message it carries; and a message (the top one, or one a message/rfc822 part carries) that
    /// is not multipart has its body as part 1, so `1` of a plain message and `2.1` of an attached
    /// plain message name that message's body. Dovecot goes one step further, and so do we: `1` of
    /// a part that is neither multipart nor message/rfc822 is that part (`2.1` is `2`), once. An empty
    /// list names the whole message (index 0).
    static func resolve(_ numbers: [Int], in tree: MIMETree) -> Int? {
        var node = 0
        // Whether `node` is a message whose parts are numbered, rather than one of its parts.
        var isMessage = true
        // Whether the last step was to an only part: Dovecot takes no second into a leaf (`1.1` of
        // a plain message, `2.1.1` of a leaf `2`, are nothing).
        var tookOnlyPart = false
        for number in numbers {
            let message: Int?
            if isMessage {
                message = node
            } else if case .message(let child) = tree.parts[node].structure {
                message = child
            } else {
                message = nil
            }
            let container = message ?? node
            if case .multipart(let children) = tree.parts[container].structure {
                guard number >= 1, number <= children.count else { return nil }
                node = children[number - 1]
            } else if number == 1, message != nil || (!tookOnlyPart && tree.parts[container].structure == .leaf) {
                // A message's only part, or (as Dovecot answers; RFC 3501 leaves it open) a leaf's.
                node = container
                isMessage = false
                tookOnlyPart = true
                continue
            } else {
                return nil
            }
            isMessage = false
            tookOnlyPart = false
        }
        return node
    }

    /// The message whose HEADER, TEXT or header fields a section with these part numbers names:
    /// the top message for none, the message a message/rfc822 part carries otherwise (nil for any
    /// other part).
    static func message(_ numbers: [Int], in tree: MIMETree) -> Int? {
        guard !numbers.isEmpty else { return 0 }
        guard let node = resolve(numbers, in: tree), case .message(let child) = tree.parts[node].structure else { return nil }
        return child
    }

    /// The header of the part at `index`: its fields and the blank line after them.
    static func headerRange(of index: Int, in tree: MIMETree) -> Range<Int> {
        let part = tree.parts[index]
        return part.range.lowerBound..<part.bodyRange.lowerBound
    }

    /// What `section` names in the message `bytes`; empty when the part does not exist.
    static func select(_ section: IMAPSection, tree: MIMETree, in bytes: UnsafeRawBufferPointer) -> Selection {
        let none = Selection.range(0..<0)
        switch section.text {
        case nil:
            guard !section.part.isEmpty else { return .range(0..<bytes.count) }
            guard let node = resolve(section.part, in: tree) else { return none }
            return .range(tree.parts[node].bodyRange)
        case .mime?:
            guard let node = resolve(section.part, in: tree) else { return none }
            return .range(headerRange(of: node, in: tree))
        case .header?:
            guard let message = message(section.part, in: tree) else { return none }
            return .range(headerRange(of: message, in: tree))
        case .text?:
            guard let message = message(section.part, in: tree) else { return none }
            return .range(tree.parts[message].bodyRange)
        case .headerFields(let names)?:
            guard let message = message(section.part, in: tree) else { return none }
            return .bytes(fields(of: message, in: tree, bytes: bytes, names: names, keep: true))
        case .headerFieldsNot(let names)?:
            guard let message = message(section.part, in: tree) else { return none }
            return .bytes(fields(of: message, in: tree, bytes: bytes, names: names, keep: false))
        }
    }

    /// The header fields of `message` whose names are (`keep`) or are not among `names`, any case,
    /// each as written (folded lines kept) and ended by CRLF, then the blank line.
    static func fields(of message: Int, in tree: MIMETree, bytes: UnsafeRawBufferPointer, names: [String], keep: Bool) -> [UInt8] {
        let wanted = Set(names.map { $0.lowercased() })
        var result: [UInt8] = []
        for field in tree.parts[message].headers.fields where wanted.contains(field.lowercasedName) == keep {
            result.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[field.range]))
            result.append(0x0D)
            result.append(0x0A)
        }
        result.append(0x0D)
        result.append(0x0A)
        return result
    }

    /// The decoded content of the part `numbers` name for BINARY (RFC 3516): empty when there is
    /// no such part, the message as it is for none, a failure for a transfer encoding not known.
    static func decoded(_ numbers: [Int], raw: Data, tree: MIMETree) -> Result<[UInt8], IMAPFetchFailure> {
        raw.withUnsafeBytes { bytes in
            guard !numbers.isEmpty else { return .success(Array(bytes)) }
            guard let node = resolve(numbers, in: tree) else { return .success([]) }
            let part = tree.parts[node]
            if let written = part.headers["content-transfer-encoding"] {
                let name = written.trimmingMIMESpaces.lowercased()
                guard ["7bit", "8bit", "binary", "base64", "quoted-printable"].contains(name) else {
                    return .failure(.unknownTransferEncoding(part: numbers, encoding: written.trimmingMIMESpaces))
                }
            }
            return .success(part.transferEncoding.decode(UnsafeRawBufferPointer(rebasing: bytes[part.bodyRange])))
        }
    }
}
