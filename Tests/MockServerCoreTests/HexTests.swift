import MockServerCore
import Testing

@Suite struct HexTests {
    @Test(arguments: [([], ""), ([0x00], "00"), ([0x0a, 0xff], "0aff"), ([0x08, 0x2a, 0x10], "082a10")] as [([UInt8], String)])
    func lowercaseDigits(bytes: [UInt8], text: String) {
        #expect(Hex.lowercase(bytes) == text)
    }

    @Test func everyByteAsTheStandardLibraryWritesIt() {
        let all = (0...255).map { UInt8($0) }
        #expect(Hex.lowercase(all) == all.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined())
    }
}
