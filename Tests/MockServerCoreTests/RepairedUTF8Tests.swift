import Foundation
import Testing
import TestSupport
import MockServerCore

/// Our UTF-8 repair must give exactly the standard library's text, which is the reference.
@Suite("UTF-8 repair")
struct RepairedUTF8Tests {
    @Test("ill-formed sequences are replaced as String(decoding:) replaces them", arguments: [
        [], [0x41], [0x80], [0xC0, 0x80], [0xC2], [0xC2, 0x41], [0xE0, 0x80, 0x80], [0xE0, 0xA0], [0xE0, 0xA0, 0x41],
        [0xED, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xF0, 0x8F, 0xBF, 0xBF], [0xF0, 0x90, 0x80], [0xF0, 0x90, 0x80, 0x80],
        [0xF4, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF], [0xF5, 0x80], [0xFF, 0xFE], [0x41, 0xE2, 0x82, 0xAC, 0xE2, 0x82],
        Array("héllo wörld ✓ 🎉".utf8), [0xE2, 0x82, 0xE2, 0x82, 0xAC, 0x80, 0xF0, 0x9F, 0x8E],
    ] as [[UInt8]])
    func edgeCases(bytes: [UInt8]) {
        #expect(RepairedUTF8.decode(bytes) == String(decoding: bytes, as: UTF8.self))
    }

    @Test("random bytes, and random mixes of valid text and noise, decode as the standard library does", arguments: 0..<20)
    func random(seed: UInt64) {
        let noise = Array(Tools.randomBytes(4096, seed: seed + 1))
        #expect(RepairedUTF8.decode(noise) == String(decoding: noise, as: UTF8.self))
        var mixed: [UInt8] = []
        for (index, byte) in noise.prefix(512).enumerated() {
            mixed.append(contentsOf: index % 3 == 0 ? Array(Array("é✓🎉a".utf8).dropFirst(index % 5)) : [byte])
        }
        #expect(RepairedUTF8.decode(mixed) == String(decoding: mixed, as: UTF8.self))
    }
}
