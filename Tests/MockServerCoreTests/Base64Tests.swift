import MockServerCore
import Testing

@Suite struct Base64Tests {
    @Test(arguments: [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy")])
    func rfc4648Vectors(plain: String, encoded: String) {
        #expect(Base64.encode(Array(plain.utf8)) == encoded)
        #expect(Base64.decode(encoded) == Array(plain.utf8))
        #expect(Base64.decode(encoded.replacingOccurrences(of: "=", with: "")) == Array(plain.utf8))
    }

    @Test func urlSafeAlphabetAndEveryByte() {
        let all = (0...255).map { UInt8($0) }
        let standard = Base64.encode(all)
        #expect(Base64.decode(standard) == all)
        let urlSafe = standard.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        #expect(Base64.decode(urlSafe) == all)
        #expect(Base64.decode([0xFB, 0xFF].isEmpty ? "" : "-_8=") == [0xFB, 0xFF])
    }

    @Test func invalidTextIsRefused() {
        #expect(Base64.decode("Zg=a") == nil)
        #expect(Base64.decode("Z") == nil)
        #expect(Base64.decode("Zm9v!") == nil)
        #expect(Base64.decode("Zg===") == nil)
        #expect(Base64.decode("Zm9=") != nil)
    }
}
