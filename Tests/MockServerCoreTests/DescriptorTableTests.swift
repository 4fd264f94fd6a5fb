import Testing
import MockServerCore

/// The loop's table of handlers behaves as the dictionary it replaced: set, read, forget, grow.
@Suite("Descriptor table")
struct DescriptorTableTests {
    @Test("holds, replaces and forgets handlers by descriptor, out of order and past its length")
    func setAndForget() {
        var table = DescriptorTable<String>()
        #expect(table[0] == nil)
        #expect(table[-1] == nil)
        #expect(table[1_000] == nil)
        table[7] = "seven"
        table[3] = "three"
        #expect(table[7] == "seven")
        #expect(table[3] == "three")
        #expect(table[5] == nil)
        #expect(table[8] == nil)
        table[7] = "again"
        #expect(table[7] == "again")
        #expect(table.values == ["three", "again"])
        table[3] = nil
        table[50] = nil
        table[-2] = "negative"
        #expect(table[3] == nil)
        #expect(table[-2] == nil)
        #expect(table.values == ["again"])
        table.removeAll()
        #expect(table.values.isEmpty)
        #expect(table[7] == nil)
    }
}
