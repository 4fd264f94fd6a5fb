import Foundation
import Testing
import MockServerCore
import MockServerScript

@Suite("Substitutions")
struct TemplateTests {
    let context = SubstitutionContext(address: "127.0.0.1", serverName: "Fake", port: 2121,
                                      data: Array("12345".utf8), now: { Date(timeIntervalSince1970: 784_111_777) },
                                      protocolVariables: ["twice": ScriptProtocolVariable("twice") { String(Int($0.port) * 2) },
                                                          "echo": ScriptProtocolVariable("echo", argument: { argument, _ in "<\(argument)>" })])

    private func render(_ template: String, input: String = "LINE", groups: [String?] = []) -> String {
        String(decoding: ResponseTemplate(template).render(input: InputUnit(input), groups: groups, context: context), as: UTF8.self)
    }

    @Test("a protocol's variable with an argument: ${name:argument}, the name as written or lowercased; otherwise as written")
    func variableWithArgument() {
        #expect(render("${echo:a b:c}|${ECHO:x}") == "<a b:c>|<x>")
        #expect(render("$echo ${echo} ${echo:} ${twice:x} ${other:x} ${1x:y}") == "$echo ${echo} ${echo:} ${twice:x} ${other:x} ${1x:y}")
        #expect(render("${twice}") == "4242")
    }

    @Test("the arguments-only syntax (an endpoints file's): only ${name:argument} with a known name; $1, $$, $name stay as written")
    func argumentsOnly() throws {
        let names: Set<String> = ["param", "query"]
        let template = try ResponseTemplate(arguments: "$1 costs $$5 ${param:id}/${query:a:b} $data ${param:none}", names: names)
        let rendered = template.render { name, argument in argument == "none" ? nil : "\(name)=\(argument)" }
        #expect(rendered == "$1 costs $$5 param=id/query=a:b $data ${param:none}")
        #expect(try ResponseTemplate(arguments: "", names: names).render { _, _ in "x" } == "")
        #expect(throws: ResponseTemplate.ArgumentProblem.unclosed("${param:id and more")) { try ResponseTemplate(arguments: "a ${param:id and more", names: names) }
        for (text, inner) in [("${form:x}", "form:x"), ("${param}", "param"), ("${1}", "1"), ("${param:}", "param:"), ("${:x}", ":x"), ("${Param:x}", "Param:x")] {
            #expect(throws: ResponseTemplate.ArgumentProblem.unknown(inner)) { try ResponseTemplate(arguments: text, names: names) }
        }
    }

    @Test("$1 and $10 are different groups; two digits are read when present")
    func groupNumbers() {
        let groups: [String?] = (1...10).map { "g\($0)" }
        #expect(render("$1-$10", groups: groups) == "g1-g10")
        #expect(render("${1}0", groups: groups) == "g10")
        #expect(render("$100", groups: groups) == "g100")
        #expect(render("$99") == "")
    }

    @Test("an unmatched or absent group is empty")
    func unmatchedGroup() {
        #expect(render("[$1][$2]", groups: [nil]) == "[][]")
    }

    @Test("$0 is the whole input unit")
    func wholeInput() {
        #expect(render("got $0!", input: "USER bob") == "got USER bob!")
    }

    @Test("$0 echoes the input's bytes exactly, even when they are not UTF-8")
    func wholeInputRaw() {
        let raw: [UInt8] = [0x41, 0xFF, 0x42]
        let output = ResponseTemplate("<$0>").render(input: InputUnit(bytes: raw), context: context)
        #expect(output == [0x3C, 0x41, 0xFF, 0x42, 0x3E])
    }

    @Test("a $ at the end, before a non-name, and $$ stay or become one $")
    func literalDollars() {
        #expect(render("cost $") == "cost $")
        #expect(render("$ 5 $-") == "$ 5 $-")
        #expect(render("$$1 and $$size") == "$1 and $size")
    }

    @Test("an unknown $word stays as written, and so does an unknown ${word}")
    func unknownWords() {
        #expect(render("$sizes $nothing ${nope}") == "$sizes $nothing ${nope}")
        #expect(render("${size}KB") == "5KB")
    }

    @Test("repeated tokens are all replaced")
    func repeatedTokens() {
        #expect(render("$1$1 $size$size", groups: ["a"]) == "aa 55")
    }

    @Test("replaced text is never scanned again")
    func noRescan() {
        #expect(render("[$1]", groups: ["$2 $size $$"]) == "[$2 $size $$]")
        #expect(render("$0", input: "$1") == "$1")
    }

    @Test("variables")
    func variables() {
        #expect(render("$address $server $port") == "127.0.0.1 Fake 2121")
        // The data port is FTP's variable, not one every script has.
        #expect(render("$dataport") == "$dataport")
        #expect(render("$size") == "5")
        #expect(render("$date") == "Sun, 06 Nov 1994 08:49:37 GMT")
    }

    @Test("a protocol's variable is rendered from the context's table; without it, and for an unknown name, the text stays as written")
    func protocolVariables() {
        #expect(render("($twice) ${twice}x $nothing ${nothing}") == "(4242) 4242x $nothing ${nothing}")
        let bare = SubstitutionContext(address: "127.0.0.1", port: 2121)
        #expect(String(decoding: ResponseTemplate("227 ($twice) ${twice}").render(input: InputUnit(""), context: bare), as: UTF8.self) == "227 ($twice) ${twice}")
        #expect(ResponseTemplate("$twice").constantBytes == nil)
    }

    @Test("a template without substitutions is constant")
    func constant() {
        #expect(ResponseTemplate("200 OK\r\n").constantBytes == Array("200 OK\r\n".utf8))
        #expect(ResponseTemplate("$1").constantBytes == nil)
    }
}
