@testable import MockServerMail
import Testing

/// The substring search under TEXT and BODY: the same answers as a naive search, in linear time.
@Suite("IMAP search needle")
struct IMAPSearchNeedleTests {
    /// Whether `needle` occurs in `haystack`, ASCII case folded, the slow obvious way.
    static func naive(_ needle: [UInt8], _ haystack: [UInt8]) -> Bool {
        let fold = { (byte: UInt8) in (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
        guard needle.count <= haystack.count else { return false }
        if needle.isEmpty { return true }
        return (0...(haystack.count - needle.count)).contains { start in
            needle.indices.allSatisfy { fold(needle[$0]) == fold(haystack[start + $0]) }
        }
    }

    @Test("agrees with a naive search on 20,000 random needles and texts over a small alphabet")
    func randomAgreement() {
        var generator = IMAPSearchRandom(seed: 52)
        let alphabet = Array("abAB".utf8)
        for _ in 0..<20_000 {
            let needle = (0..<Int.random(in: 1...6, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let haystack = (0..<Int.random(in: 0...24, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let found = haystack.withUnsafeBytes { IMAPSearchNeedle(String(decoding: needle, as: UTF8.self)).occurs(in: $0) }
            #expect(found == Self.naive(needle, haystack), "\(needle) in \(haystack)")
        }
    }

    @Test("a hostile needle (a…ab in a…a) is answered in one pass")
    func hostileNeedle() {
        let needle = IMAPSearchNeedle(String(repeating: "a", count: 5_000) + "b")
        let haystack = [UInt8](repeating: UInt8(ascii: "A"), count: 200_000) + Array("b".utf8)
        #expect(haystack.withUnsafeBytes { needle.occurs(in: $0) })
        #expect(!haystack.dropLast().withUnsafeBytes { needle.occurs(in: $0) })
    }

    @Test("non-ASCII needles are found in lowercased text; empty needles everywhere")
    func unicode() {
        #expect(IMAPSearchNeedle("ÉTÉ").occurs(inText: "un Été chaud"))
        #expect(!IMAPSearchNeedle("ete").occurs(inText: "un Été chaud"))
        #expect(IMAPSearchNeedle("été").occurs(inDecoded: [0xC9, 0x54, 0xC9], charset: "iso-8859-1"))
        #expect(IMAPSearchNeedle("").occurs(inText: ""))
    }
}
