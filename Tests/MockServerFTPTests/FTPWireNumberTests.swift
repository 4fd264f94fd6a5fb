import Foundation
import Testing
@testable import MockServerCore
@testable import MockServerFTP
@testable import MockServerFileSystem

/// The numbers in FTP command arguments (`REST`, `PORT`, `EPRT`) at the integer boundaries: each
/// is refused with a reason naming the field, or taken, and none traps or allocates what it names.
@Suite("FTP: numbers from the wire")
struct FTPWireNumberTests {
    /// The edge values no offset may be (2^31 and 2^63 - 1 may: see the tests).
    static let hostile = ["", "-1", "+1", " 1", "1 ", "-9223372036854775808", "9223372036854775808",
                          "18446744073709551615", "99999999999999999999", "0x10", "1e3", "1.0", "١"]

    @Test("FTPNumber: digits only, up to the maximum, refused past it before any overflow")
    func decimal() {
        #expect(FTPNumber.parse("0", maximum: 0) == 0)
        #expect(FTPNumber.parse("255", maximum: 255) == 255)
        #expect(FTPNumber.parse("256", maximum: 255) == nil)
        #expect(FTPNumber.parse("000000000000000000000000255", maximum: 255) == 255)
        #expect(FTPNumber.parse("9223372036854775807", maximum: Int.max) == Int.max)
        #expect(FTPNumber.parse("9223372036854775808", maximum: Int.max) == nil)
        #expect(FTPNumber.parse("9223372036854775806", maximum: Int.max - 1) == Int.max - 1)
        #expect(FTPNumber.parse("9223372036854775807", maximum: Int.max - 1) == nil)
        #expect(FTPNumber.parse("1", maximum: -1) == nil)
        #expect(FTPNumber.parse("2147483648", maximum: Int.max) == 2_147_483_648)
        #expect(FTPNumber.parse("2147483648", maximum: Int(Int32.max)) == nil)
        for text in Self.hostile {
            #expect(FTPNumber.parse(text, maximum: Int.max) == nil, "\(text)")
        }
    }

    @Test("PORT: six numbers from 0 to 255, a port that is not 0; the reason names the field")
    func port() throws {
        #expect(try FTPAddress.parse("127,0,0,1,4,1") == NetworkAddress(host: "127.0.0.1", port: 1025, isIPv6: false))
        #expect(try FTPAddress.parse(" 127,0,0,1,255,255 ") == NetworkAddress(host: "127.0.0.1", port: 65535, isIPv6: false))
        let cases: [(String, String)] = [
            ("127,0,0,1,256,1", "PORT's p1 \"256\" is not a number from 0 to 255"),
            ("127,0,0,1,4,-1", "PORT's p2 \"-1\" is not a number from 0 to 255"),
            ("-1,0,0,1,4,1", "PORT's h1 \"-1\" is not a number from 0 to 255"),
            ("127,0,0,+1,4,1", "PORT's h4 \"+1\" is not a number from 0 to 255"),
            ("127,0, 0,1,4,1", "PORT's h3 \" 0\" is not a number from 0 to 255"),
            ("127,0,0,1,4,99999999999999999999", "PORT's p2 \"99999999999999999999\" is not a number from 0 to 255"),
            ("127,0,0,1,4,18446744073709551615", "PORT's p2 \"18446744073709551615\" is not a number from 0 to 255"),
            ("127,0,0,1,4", "PORT needs six numbers h1,h2,h3,h4,p1,p2, not 5 (\"127,0,0,1,4\")"),
            ("127,0,0,1,4,1,1", "PORT needs six numbers h1,h2,h3,h4,p1,p2, not 7 (\"127,0,0,1,4,1,1\")"),
            ("127,0,0,1,0,0", "PORT's port p1,p2 is 0"),
            ("", "PORT needs six numbers h1,h2,h3,h4,p1,p2, not 1 (\"\")"),
        ]
        for (argument, reason) in cases {
            #expect(throws: FTPAddress.Malformed(reason: reason), "\(argument)") { try FTPAddress.parse(argument) }
        }
    }

    @Test("EPRT: protocol 1 or 2, an address of that family, a port from 1 to 65535, one delimiter")
    func eprt() throws {
        #expect(try FTPAddress.parse("|1|127.0.0.1|65535|") == NetworkAddress(host: "127.0.0.1", port: 65535, isIPv6: false))
        #expect(try FTPAddress.parse("!2!::1!21!") == NetworkAddress(host: "::1", port: 21, isIPv6: true))
        let cases: [(String, String)] = [
            ("|1|127.0.0.1|65536|", "EPRT's port \"65536\" is not a number from 1 to 65535"),
            ("|1|127.0.0.1|0|", "EPRT's port \"0\" is not a number from 1 to 65535"),
            ("|1|127.0.0.1|9223372036854775808|", "EPRT's port \"9223372036854775808\" is not a number from 1 to 65535"),
            ("|1|127.0.0.1|+21|", "EPRT's port \"+21\" is not a number from 1 to 65535"),
            ("|1|127.0.0.1||", "EPRT's port \"\" is not a number from 1 to 65535"),
            ("|3|127.0.0.1|21|", "EPRT's network protocol \"3\" is neither 1 (IPv4) nor 2 (IPv6)"),
            ("||127.0.0.1|21|", "EPRT's network protocol \"\" is neither 1 (IPv4) nor 2 (IPv6)"),
            ("|1|::1|21|", "EPRT's address \"::1\" is not an IPv4 address"),
            ("|2|127.0.0.1|21|", "EPRT's address \"127.0.0.1\" is not an IPv6 address"),
            ("|1|300.0.0.1|21|", "EPRT's address \"300.0.0.1\" is not an IPv4 address"),
            ("|1|127.0.0.1|21", "EPRT needs <d>protocol<d>address<d>port<d> with one delimiter, not \"|1|127.0.0.1|21\""),
            ("|1|127.0.0.1|21||", "EPRT needs <d>protocol<d>address<d>port<d> with one delimiter, not \"|1|127.0.0.1|21||\""),
            ("|1!127.0.0.1!21!", "EPRT needs <d>protocol<d>address<d>port<d> with one delimiter, not \"|1!127.0.0.1!21!\""),
        ]
        for (argument, reason) in cases {
            #expect(throws: FTPAddress.Malformed(reason: reason), "\(argument)") { try FTPAddress.parse(argument) }
        }
    }

    @Test("REST: any offset to Int.max is taken (the transfer answers), anything else is 501 naming it")
    func rest() {
        var session = FTPFileSystemTests.Session()
        #expect(session.reply("REST 0") == "350 Restarting at 0. Send STORE or RETRIEVE.\r\n")
        #expect(session.reply("REST 9223372036854775807") == "350 Restarting at 9223372036854775807. Send STORE or RETRIEVE.\r\n")
        #expect(session.reply("RETR a.txt") == "554 Restart offset 9223372036854775807 is past the end (6 bytes).\r\n")
        for text in Self.hostile {
            #expect(session.reply("REST \(text)") == "501 Syntax error in parameters: REST needs a byte offset from 0 to 9223372036854775807, not \"\(text)\".\r\n")
            #expect(session.state.restartOffset == 0, "\(text)")
        }
    }

    @Test("STOR after REST past the end: a gap up to 16 MiB is zeros, a longer one is 554 before any byte is held")
    func uploadGap() {
        var session = FTPFileSystemTests.Session()
        for offset in ["9223372036854775807", "2147483648", String(6 + FTPFileSystem.maximumUploadGap + 1)] {
            _ = session.reply("REST \(offset)")
            #expect(session.reply("STOR a.txt").hasPrefix("554 Restart offset \(offset) is "), "\(offset)")
            _ = session.reply("REST \(offset)")
            #expect(session.reply("STOR new.txt").hasPrefix("554 Restart offset \(offset) is \(offset) bytes past the end of new.txt (0 bytes)"), "\(offset)")
        }
        _ = session.reply("REST \(6 + FTPFileSystem.maximumUploadGap)")
        guard case .upload(_, _, let offset, _) = session.send("STOR a.txt") else { Issue.record("no upload"); return }
        #expect(offset == 6 + FTPFileSystem.maximumUploadGap)
        // A file shrunk after the STOR was answered still gets at most the gap's zeros.
        var system = FTPFileSystem(files: ["/a.txt": []], times: session.times, data: [], now: session.now)
        system.store(Array("Z".utf8), at: "/a.txt", offset: Int.max)
        #expect(system.files["/a.txt"]?.count == FTPFileSystem.maximumUploadGap + 1)
    }
}
