/// HPACK's dynamic table (RFC 7541 §2.3.2, §4): the newest entry first, sized by §4.1's rule
/// (32 bytes per entry beyond its name and value), the oldest evicted to make room or when the size
/// shrinks. Its indices follow the static table's: `entry(at: 62)` is the newest.
package struct HPACKDynamicTable: Sendable {
    /// The entries, oldest first (index 62 is the last).
    private var entries: [HPACKHeader] = []
    /// The sum of the entries' sizes.
    package private(set) var size = 0
    /// The size the entries may take, set by the encoder's size updates.
    package private(set) var maximumSize: Int

    package init(maximumSize: Int = 4096) {
        self.maximumSize = maximumSize
    }

    package var count: Int { entries.count }

    /// The entry at `index` of the combined index space (62 and up), or nil past the table.
    package func entry(at index: Int) -> HPACKHeader? {
        let position = entries.count - 1 - (index - HPACKStaticTable.entries.count - 1)
        return entries.indices.contains(position) ? entries[position] : nil
    }

    /// Adds `header` as the newest entry, evicting the oldest ones to make room; an entry larger than
    /// the whole table empties it and is not added (§4.4).
    package mutating func insert(_ header: HPACKHeader) {
        var header = header
        header.sensitive = false
        evict(toFit: maximumSize - header.size)
        guard header.size <= maximumSize else { return }
        entries.append(header)
        size += header.size
    }

    /// Changes the maximum size, evicting the oldest entries past it (§4.3).
    package mutating func resize(to maximumSize: Int) {
        self.maximumSize = maximumSize
        evict(toFit: maximumSize)
    }

    /// The combined index of the newest entry equal to `header` (name and value), and failing that
    /// of the newest with its name.
    package func search(_ header: HPACKHeader) -> (index: Int, valueMatches: Bool)? {
        var nameMatch: Int?
        for position in entries.indices.reversed() where entries[position].name == header.name {
            let index = entries.count - 1 - position + HPACKStaticTable.entries.count + 1
            if entries[position].value == header.value { return (index, true) }
            if nameMatch == nil { nameMatch = index }
        }
        return nameMatch.map { ($0, false) }
    }

    private mutating func evict(toFit room: Int) {
        var evicted = 0
        while size > max(room, 0), evicted < entries.count {
            size -= entries[evicted].size
            evicted += 1
        }
        entries.removeFirst(evicted)
    }
}
