/// Decodes header blocks (RFC 7541 §3, §6) into header lists, keeping the dynamic table its peer's
/// encoder fills. A peer cannot make it hold more than it allows: the table stays within
/// `maximumTableSizeLimit` (the SETTINGS_HEADER_TABLE_SIZE this side advertised), and a header list
/// past `maximumHeaderListSize` is not kept (the block is still read to its end, so that the table
/// stays in step, and the decode then fails with `headerListTooLarge`).
package struct HPACKDecoder: Sendable {
    package private(set) var table: HPACKDynamicTable
    /// The largest dynamic table size the peer's encoder may choose.
    package private(set) var maximumTableSizeLimit: Int
    /// The largest header list (names, values and 32 per field) a block may carry.
    package var maximumHeaderListSize: Int
    /// Set when the limit was lowered: the next block must start with a size update to at most this.
    private var requiredSizeUpdate: Int?

    package init(maximumTableSizeLimit: Int = 4096, maximumHeaderListSize: Int = 64 * 1024) {
        table = HPACKDynamicTable(maximumSize: maximumTableSizeLimit)
        self.maximumTableSizeLimit = maximumTableSizeLimit
        self.maximumHeaderListSize = maximumHeaderListSize
    }

    /// Changes the limit this side advertises (once the peer acknowledged the SETTINGS that carry it);
    /// a lower one than the table's size must be met by a size update at the start of the next block.
    package mutating func setMaximumTableSizeLimit(_ limit: Int) {
        if limit < table.maximumSize { requiredSizeUpdate = limit }
        maximumTableSizeLimit = limit
    }

    /// Decodes one complete header block (the HEADERS or PUSH_PROMISE fragment and its CONTINUATIONs).
    package mutating func decode(_ block: [UInt8]) throws(HPACKError) -> [HPACKHeader] {
        var result: Result<[HPACKHeader], HPACKError> = .success([])
        block.withUnsafeBytes { bytes in result = Result { () throws(HPACKError) in try decode(bytes) } }
        return try result.get()
    }

    /// Decodes one complete header block.
    package mutating func decode(_ block: UnsafeRawBufferPointer) throws(HPACKError) -> [HPACKHeader] {
        var headers: [HPACKHeader] = []
        var listSize = 0
        var offset = 0
        var fieldSeen = false
        while offset < block.count {
            let first = block[offset]
            let header: HPACKHeader
            if first & 0x80 != 0 {
                // §6.1 indexed field.
                let index = try HPACKInteger.decode(block, prefixBits: 7, offset: &offset)
                header = try entry(at: index)
            } else if first & 0xC0 == 0x40 {
                // §6.2.1 literal with incremental indexing.
                header = try literal(block, prefixBits: 6, offset: &offset, sensitive: false)
                table.insert(header)
            } else if first & 0xE0 == 0x20 {
                // §6.3 dynamic table size update, only before the first field.
                guard !fieldSeen else { throw .tableSizeUpdateNotAtStart }
                let size = try HPACKInteger.decode(block, prefixBits: 5, offset: &offset)
                guard size <= maximumTableSizeLimit else { throw .tableSizeAboveLimit(size: size, limit: maximumTableSizeLimit) }
                if let required = requiredSizeUpdate, size <= required { requiredSizeUpdate = nil }
                table.resize(to: size)
                continue
            } else {
                // §6.2.2 without indexing (0000), §6.2.3 never indexed (0001).
                header = try literal(block, prefixBits: 4, offset: &offset, sensitive: first & 0x10 != 0)
            }
            if let required = requiredSizeUpdate { throw .missingTableSizeUpdate(limit: required) }
            fieldSeen = true
            listSize += header.size
            if listSize <= maximumHeaderListSize { headers.append(header) }
        }
        guard listSize <= maximumHeaderListSize else { throw .headerListTooLarge(limit: maximumHeaderListSize) }
        return headers
    }

    /// The entry at a combined index: the static table's 1 to 61, then the dynamic table's.
    private func entry(at index: Int) throws(HPACKError) -> HPACKHeader {
        guard index != 0 else { throw .indexZero }
        if index <= HPACKStaticTable.entries.count { return HPACKStaticTable.entries[index - 1] }
        guard let entry = table.entry(at: index) else {
            throw .indexOutOfRange(index: index, tableCount: HPACKStaticTable.entries.count + table.count)
        }
        return entry
    }

    /// A literal field: an indexed name (a nonzero index in the prefix) or a literal one, then the value.
    private func literal(_ block: UnsafeRawBufferPointer, prefixBits: Int, offset: inout Int, sensitive: Bool) throws(HPACKError) -> HPACKHeader {
        let index = try HPACKInteger.decode(block, prefixBits: prefixBits, offset: &offset)
        let name = index == 0 ? try HPACKString.decode(block, offset: &offset) : try entry(at: index).name
        let value = try HPACKString.decode(block, offset: &offset)
        return HPACKHeader(name: name, value: value, sensitive: sensitive)
    }
}
