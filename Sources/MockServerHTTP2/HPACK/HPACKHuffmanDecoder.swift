/// The Huffman decoder's state machine, built once from `HPACKHuffman.codes`: a state is an inner
/// node of the code's tree (the root is 0; 257 symbols make 256 inner nodes, so a state fits a byte),
/// and each state has a step for each of the 16 nibbles. A nibble finishes at most one symbol, since
/// the shortest code is 5 bits long.
struct HPACKHuffmanDecoder: Sendable {
    /// The step bit that says the nibble finished a symbol, which is in bits 8 to 15.
    static let emits: UInt32 = 1 << 16
    /// The step bit that says the nibble reached EOS, which a string must never contain.
    static let failed: UInt32 = 1 << 17

    /// `steps[state << 4 | nibble]`: the next state in bits 0 to 7, the symbol in bits 8 to 15, and
    /// the flags `emits` and `failed`.
    let steps: [UInt32]
    /// Whether a string may end in each state: at the root, or after at most seven one bits (a
    /// prefix of EOS) since the last symbol.
    let acceptsEnd: [Bool]

    static let shared = HPACKHuffmanDecoder()

    private init() {
        // The tree: children[node] = (zero, one); a child >= 0 is an inner node, a child < 0 is the
        // leaf of symbol -child - 1.
        var children: [(zero: Int, one: Int)] = [(0, 0)]
        var paddingDepth: [Int?] = [0]  // for nodes reached by ones only: how many
        for (symbol, entry) in HPACKHuffman.codes.enumerated() {
            var node = 0
            for position in stride(from: Int(entry.length) - 1, through: 0, by: -1) {
                let bit = entry.code >> UInt32(position) & 1
                let next = bit == 0 ? children[node].zero : children[node].one
                if position == 0 {
                    if bit == 0 { children[node].zero = -symbol - 1 } else { children[node].one = -symbol - 1 }
                } else if next > 0 {
                    node = next
                } else {
                    children.append((0, 0))
                    paddingDepth.append(bit == 1 ? paddingDepth[node].map { $0 + 1 } : nil)
                    let created = children.count - 1
                    if bit == 0 { children[node].zero = created } else { children[node].one = created }
                    node = created
                }
            }
        }
        var steps = [UInt32](repeating: 0, count: children.count * 16)
        for state in children.indices {
            for nibble in 0..<16 {
                var node = state
                var step: UInt32 = 0
                for position in stride(from: 3, through: 0, by: -1) {
                    let child = (nibble >> position) & 1 == 0 ? children[node].zero : children[node].one
                    if child >= 0 {
                        node = child
                        continue
                    }
                    let symbol = -child - 1
                    if symbol == 256 {
                        step |= Self.failed
                        break
                    }
                    step |= Self.emits | UInt32(symbol) << 8
                    node = 0
                }
                steps[state << 4 | nibble] = step | UInt32(node)
            }
        }
        self.steps = steps
        acceptsEnd = paddingDepth.map { depth in depth.map { $0 <= 7 } ?? false }
    }
}
