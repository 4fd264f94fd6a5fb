import Foundation
import MockServerCore

/// MD5 (RFC 1321) and HMAC-MD5 (RFC 2104), for the two mail logins that prove a password without
/// sending it: POP3's `APOP` (RFC 1939 §7) and SASL's CRAM-MD5 (RFC 2195). Neither is security
/// here: a test server checks a test password. Own code, so that the mail family needs no crypto
/// library on any platform.
package enum MailDigest {
    /// The MD5 digest of `message`: 16 bytes.
    package static func md5<Bytes: Collection<UInt8>>(_ message: Bytes) -> [UInt8] {
        var state: (UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476)
        var block = [UInt8]()
        block.reserveCapacity(64)
        for byte in message {
            block.append(byte)
            if block.count == 64 {
                compress(&state, block)
                block.removeAll(keepingCapacity: true)
            }
        }
        let bitLength = UInt64(message.count) &* 8
        block.append(0x80)
        if block.count > 56 {
            block.append(contentsOf: repeatElement(0, count: 64 - block.count))
            compress(&state, block)
            block.removeAll(keepingCapacity: true)
        }
        block.append(contentsOf: repeatElement(0, count: 56 - block.count))
        for shift in stride(from: 0, to: 64, by: 8) { block.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        compress(&state, block)
        var digest = [UInt8]()
        digest.reserveCapacity(16)
        for word in [state.0, state.1, state.2, state.3] {
            for shift in stride(from: 0, to: 32, by: 8) { digest.append(UInt8(truncatingIfNeeded: word >> UInt32(shift))) }
        }
        return digest
    }

    /// HMAC-MD5 of `message` under `key` (RFC 2104): a key longer than MD5's 64-byte block is hashed first.
    package static func hmacMD5(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var key = key.count > 64 ? md5(key) : key
        key.append(contentsOf: repeatElement(0, count: 64 - key.count))
        let inner = md5(key.map { $0 ^ 0x36 } + message)
        return md5(key.map { $0 ^ 0x5c } + inner)
    }

    /// `bytes` as lowercase hexadecimal, as APOP and CRAM-MD5 write a digest.
    package static func hex(_ bytes: [UInt8]) -> String {
        Hex.lowercase(bytes)
    }

    /// Each round's shift amounts, four a round.
    private static let shifts: [UInt32] = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21]

    /// The 64 constants: the integer part of 2^32 × |sin(i + 1)|.
    private static let constants: [UInt32] = (0..<64).map { UInt32(truncatingIfNeeded: Int64((abs(sin(Double($0 + 1))) * 4_294_967_296).rounded(.down))) }

    /// Folds one 64-byte block into the state.
    private static func compress(_ state: inout (UInt32, UInt32, UInt32, UInt32), _ block: [UInt8]) {
        var words = [UInt32](repeating: 0, count: 16)
        for index in 0..<16 {
            let at = index * 4
            words[index] = UInt32(block[at]) | UInt32(block[at + 1]) << 8 | UInt32(block[at + 2]) << 16 | UInt32(block[at + 3]) << 24
        }
        var (a, b, c, d) = state
        for round in 0..<64 {
            var mix: UInt32
            var word: Int
            switch round / 16 {
            case 0: mix = (b & c) | (~b & d); word = round
            case 1: mix = (d & b) | (~d & c); word = (5 * round + 1) % 16
            case 2: mix = b ^ c ^ d; word = (3 * round + 5) % 16
            default: mix = c ^ (b | ~d); word = (7 * round) % 16
            }
            mix = mix &+ a &+ constants[round] &+ words[word]
            a = d
            d = c
            c = b
            let shift = shifts[(round / 16) * 4 + round % 4]
            b = b &+ (mix << shift | mix >> (32 - shift))
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
    }
}
