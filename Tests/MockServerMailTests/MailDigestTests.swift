@testable import MockServerMail
import Testing

@Suite("MD5 and HMAC-MD5 for APOP and CRAM-MD5")
struct MailDigestTests {
    @Test("RFC 1321's test suite, and lengths at each padding edge against known digests",
          arguments: [("", "d41d8cd98f00b204e9800998ecf8427e"),
                      ("a", "0cc175b9c0f1b6a831c399e269772661"),
                      ("abc", "900150983cd24fb0d6963f7d28e17f72"),
                      ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
                      ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
                      ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
                      (String(repeating: "1234567890", count: 8), "57edf4a22be3c955ac49da2e2107b67a"),
                      (String(repeating: "x", count: 55), "04364420e25c512fd958a70738aa8f72"),
                      (String(repeating: "x", count: 56), "668a72d5ba17f08e62dabcafad6db14b"),
                      (String(repeating: "x", count: 64), "c1bb4f81d892b2d57947682aeb252456")])
    func md5(text: String, digest: String) {
        #expect(MailDigest.hex(MailDigest.md5(Array(text.utf8))) == digest)
    }

    @Test("APOP's digest as RFC 1939 §7 shows it")
    func apop() {
        #expect(MailDigest.hex(MailDigest.md5(Array("<1896.697170952@dbc.mtview.ca.us>tanstaaf".utf8))) == "c4c9334bac560ecc979e58001b3e22fb")
    }

    @Test("CRAM-MD5's answer as RFC 2195 shows it, and a key longer than a block")
    func cramMD5() {
        let answer = MailDigest.hmacMD5(key: Array("tanstaaftanstaaf".utf8), message: Array("<1896.697170952@postoffice.reston.mci.net>".utf8))
        #expect(MailDigest.hex(answer) == "b913a602c7eda7a495b4e6e7334d3890")
        // RFC 2202's test case 6: an 80-byte key of 0xaa.
        let long = MailDigest.hmacMD5(key: [UInt8](repeating: 0xaa, count: 80), message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8))
        #expect(MailDigest.hex(long) == "6b1ab7fe4bd7bf8f0b62e6ce61b9d0cd")
    }
}
