import Foundation
import MockServerResponses
import Testing
import TestSupport
import MockServer

/// Hostile numbers in FTP arguments, sent over a real control connection to the bundled `ftp.json`:
/// each gets its answer and the connection goes on.
@Suite("FTP: hostile numbers over the control connection", .offPool)
struct FTPWireArgumentTests {
    @Test("PORT, EPRT and REST with bad numbers get 501 naming the field; the session goes on")
    func badNumbers() async throws {
        let server = try MockServer(script: BundledResponses.script(named: "ftp"))
        try await server.start()
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        #expect(try client.readLine().hasPrefix("220 "))
        let exchanges: [(String, String)] = [
            ("PORT 127,0,0,1,256,1", "501 Syntax error in parameters: PORT's p1 \"256\" is not a number from 0 to 255.\r\n"),
            ("PORT 127,0,0,1,4,-1", "501 Syntax error in parameters: PORT's p2 \"-1\" is not a number from 0 to 255.\r\n"),
            ("PORT 127,0,0,1,4", "501 Syntax error in parameters: PORT needs six numbers h1,h2,h3,h4,p1,p2, not 5 (\"127,0,0,1,4\").\r\n"),
            ("EPRT |1|127.0.0.1|65536|", "501 Syntax error in parameters: EPRT's port \"65536\" is not a number from 1 to 65535.\r\n"),
            ("EPRT |9|127.0.0.1|21|", "501 Syntax error in parameters: EPRT's network protocol \"9\" is neither 1 (IPv4) nor 2 (IPv6).\r\n"),
            ("EPRT |1|127.0.0.1|21", "501 Syntax error in parameters: EPRT needs <d>protocol<d>address<d>port<d> with one delimiter, not \"|1|127.0.0.1|21\".\r\n"),
            // A well-formed address that is not the client's own still gets the script's `otherwise`.
            ("PORT 10,0,0,1,4,1", "500 Illegal PORT command: only your own address is accepted.\r\n"),
            ("REST 99999999999999999999", "501 Syntax error in parameters: REST needs a byte offset from 0 to 9223372036854775807, not \"99999999999999999999\".\r\n"),
            ("REST -1", "501 Syntax error in parameters: REST needs a byte offset from 0 to 9223372036854775807, not \"-1\".\r\n"),
            ("REST 9223372036854775807", "350 Restarting at 9223372036854775807. Send STORE or RETRIEVE.\r\n"),
            ("TYPE 18446744073709551615", "504 TYPE '18446744073709551615' is not supported: only A and I.\r\n"),
            ("NOOP", "200 NOOP command successful.\r\n"),
        ]
        for (command, reply) in exchanges {
            try client.send(command + "\r\n")
            #expect(try client.readLine() + "\r\n" == reply, "\(command)")
        }
    }

    @Test("parameters vsftpd does not offer get 504 or 522 naming them, EPSV ALL gets 200, ABOR between transfers 225; the offered ones still work")
    func unsupportedParameters() async throws {
        let server = try MockServer(script: BundledResponses.script(named: "ftp"))
        try await server.start()
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        #expect(try client.readLine().hasPrefix("220 "))
        let exchanges: [(String, String)] = [
            ("TYPE X", "504 TYPE 'X' is not supported: only A and I."),
            ("TYPE", "504 TYPE '' is not supported: only A and I."),
            ("TYPE I", "200 Type set to I."),
            ("TYPE A N", "200 Type set to A N."),
            ("MODE Z", "504 MODE 'Z' is not supported: only S."),
            ("MODE S", "200 Mode set to S."),
            ("STRU R", "504 STRU 'R' is not supported: only F."),
            ("STRU F", "200 Structure set to F."),
            ("EPSV 3", "522 Network protocol '3' not supported, use (1,2)."),
            ("EPSV 99999999999999999999", "522 Network protocol '99999999999999999999' not supported, use (1,2)."),
            ("EPSV ALL", "200 EPSV ALL ok."),
            ("ABOR", "225 No transfer to ABOR."),
        ]
        for (command, reply) in exchanges {
            try client.send(command + "\r\n")
            #expect(try client.readLine() == reply, "\(command)")
        }
        for command in ["EPSV", "EPSV 1"] {
            try client.send(command + "\r\n")
            #expect(try client.readLine().hasPrefix("229 Entering Extended Passive Mode (|||"), "\(command)")
        }
    }
}
