/// Encodes header lists into header blocks (RFC 7541 §6), keeping the dynamic table its peer's
/// decoder mirrors: a field found whole in a table is sent as its index, one whose name is found as a
/// literal with that name's index; new fields are added to the table, except sensitive ones (sent as
/// never indexed) and those larger than the table; strings are Huffman-coded when that is shorter.
package struct HPACKEncoder: Sendable {
    package private(set) var table: HPACKDynamicTable
    /// The size this encoder chooses for its table: at most what the peer allows.
    package private(set) var preferredTableSize: Int
    /// Whether strings may be Huffman-coded (when that is not longer).
    package var huffman = true
    /// The peer decoder's limit (its SETTINGS_HEADER_TABLE_SIZE).
    package private(set) var peerTableSizeLimit: Int
    /// The smallest size the table took since the last block, and the size it has now: the next
    /// block starts with both updates when they differ from what the peer last heard (§4.2).
    private var pendingSizeUpdates: (smallest: Int, final: Int)?

    package init(preferredTableSize: Int = 4096) {
        peerTableSizeLimit = 4096
        self.preferredTableSize = preferredTableSize
        table = HPACKDynamicTable(maximumSize: min(preferredTableSize, 4096))
        if table.maximumSize != 4096 { pendingSizeUpdates = (table.maximumSize, table.maximumSize) }
    }

    /// Takes the peer's SETTINGS_HEADER_TABLE_SIZE: the table shrinks to it if needed (or grows up
    /// to the preferred size), and the next block announces the change.
    package mutating func setPeerTableSizeLimit(_ limit: Int) {
        peerTableSizeLimit = limit
        let size = min(preferredTableSize, limit)
        guard size != table.maximumSize else { return }
        table.resize(to: size)
        let smallest = min(pendingSizeUpdates?.smallest ?? size, size)
        pendingSizeUpdates = (smallest, size)
    }

    /// Appends the block for `headers` to `output`.
    package mutating func encode(_ headers: [HPACKHeader], into output: inout [UInt8]) {
        if let updates = pendingSizeUpdates {
            if updates.smallest < updates.final { HPACKInteger.encode(updates.smallest, prefixBits: 5, flags: 0x20, into: &output) }
            HPACKInteger.encode(updates.final, prefixBits: 5, flags: 0x20, into: &output)
            pendingSizeUpdates = nil
        }
        for header in headers { encode(header, into: &output) }
    }

    private mutating func encode(_ header: HPACKHeader, into output: inout [UInt8]) {
        var nameIndex = 0
        if let known = HPACKStaticTable.named(header.name) {
            if let index = known.values.first(where: { $0.value == header.value })?.index, !header.sensitive {
                HPACKInteger.encode(index, prefixBits: 7, flags: 0x80, into: &output)
                return
            }
            nameIndex = known.first
        }
        if let found = table.search(header) {
            if found.valueMatches, !header.sensitive {
                HPACKInteger.encode(found.index, prefixBits: 7, flags: 0x80, into: &output)
                return
            }
            if nameIndex == 0 { nameIndex = found.index }
        }
        if header.sensitive {
            HPACKInteger.encode(nameIndex, prefixBits: 4, flags: 0x10, into: &output)
        } else if header.size <= table.maximumSize {
            HPACKInteger.encode(nameIndex, prefixBits: 6, flags: 0x40, into: &output)
            table.insert(header)
        } else {
            HPACKInteger.encode(nameIndex, prefixBits: 4, into: &output)
        }
        if nameIndex == 0 { HPACKString.encode(header.name, huffman: huffman, into: &output) }
        HPACKString.encode(header.value, huffman: huffman, into: &output)
    }
}
