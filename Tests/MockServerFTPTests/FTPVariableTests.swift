import Foundation
import Testing
import MockServerCore
import MockServerFTP
import MockServerScript

@Suite("FTP's substitutions")
struct FTPVariableTests {
    let context = SubstitutionContext(address: "127.0.0.1", serverName: "Fake", port: 2121, protocolValues: ScriptSettings([FTPDataPort(port: 0x1234)]),
                                      protocolVariables: ScriptVocabulary([FTPScriptProtocol()]).variables)

    private func render(_ template: String, in context: SubstitutionContext) -> String {
        String(decoding: ResponseTemplate(template).render(input: InputUnit(""), context: context), as: UTF8.self)
    }

    @Test("$pasv is PASV's h1,h2,h3,h4,p1,p2, $epsv is EPSV's |||port| and $dataport the number")
    func pasvAndEpsv() {
        #expect(render("$dataport ${dataport}", in: context) == "4660 4660")
        #expect(render("$pasv", in: context) == "127,0,0,1,18,52")
        #expect(render("227 Entering Passive Mode (${pasv}).", in: context) == "227 Entering Passive Mode (127,0,0,1,18,52).")
        #expect(render("$epsv", in: context) == "|||4660|")
    }

    @Test("$pasv on an IPv6 server gives 0,0,0,0 and the port")
    func pasvIPv6() {
        var context = context
        context.address = "::1"
        #expect(render("$pasv", in: context) == "0,0,0,0,18,52")
        #expect(render("$epsv", in: context) == "|||4660|")
    }

    @Test("$pasv's host is the server's address with commas only when it is four numbers of 0 to 255",
          arguments: [("10.1.2.3", "10,1,2,3"), ("0.0.0.0", "0,0,0,0"), ("255.255.255.255", "255,255,255,255"), ("001.2.3.4", "001,2,3,4"),
                      ("256.1.2.3", "0,0,0,0"), ("1.2.3", "0,0,0,0"), ("1.2.3.4.5", "0,0,0,0"), ("1..2.3", "0,0,0,0"), ("1.2.3.", "0,0,0,0"),
                      (".1.2.3", "0,0,0,0"), ("", "0,0,0,0"), ("localhost", "0,0,0,0"), ("fe80::1", "0,0,0,0"), ("1.2.3.4a", "0,0,0,0")])
    func pasvHost(address: String, host: String) {
        var context = context
        context.address = address
        #expect(render("$pasv", in: context) == host + ",18,52")
    }

    @Test("without FTP's vocabulary, $pasv, $epsv and $dataport stay as written")
    func notFTP() {
        let context = SubstitutionContext(protocolValues: ScriptSettings([FTPDataPort(port: 0x1234)]))
        #expect(render("($pasv) ($epsv) ($dataport)", in: context) == "($pasv) ($epsv) ($dataport)")
    }
}
