import Foundation
import Testing
import TestSupport
@testable import MockServer
@testable import MockServerCore
@testable import MockServerHTTP
@testable import MockServerScript
@testable import MockServerWebDAV

/// A corpus of malformed response files: each error's kind and place, through the library and
/// through `mockserver --check`.
@Suite("Malformed response files", .offPool)
struct MalformedFileTests {
    static let corpus: [(file: String, kind: String, line: Int, column: Int, message: String)] = [
        ("01-missing-comma.json", "syntax", 3, 28, "JSON syntax error: expected ',' or '}' but found '\"'"),
        ("02-unclosed-object.json", "syntax", 4, 1, "JSON syntax error: the file ended inside an object that starts at 2:16"),
        ("03-unclosed-string.json", "syntax", 3, 29, "JSON syntax error: expected ',' or '}' but found 'c'"),
        ("04-bad-escape.json", "syntax", 3, 24, "JSON syntax error: unknown escape \\d in a string"),
        ("05-double-comma.json", "syntax", 3, 46, "JSON syntax error: expected a value but found ','"),
        ("06-duplicate-key.json", "syntax", 4, 5, "JSON syntax error: duplicate key \"a\" (first at 3:5)"),
        ("07-top-level-array.json", "wrongType", 1, 1, "the file must be an object, not an array"),
        ("08-responses-array.json", "wrongType", 2, 16, "responses must be an object, not an array"),
        ("09-commands-string.json", "wrongType", 3, 41, "responses.a.commands must be an array, not a string"),
        ("10-command-boolean.json", "wrongType", 3, 42, "responses.a.commands[0] must be a string, a number of seconds or a command object, not a boolean"),
        ("11-pattern-number.json", "wrongType", 3, 23, "responses.a.pattern must be a string, not a number"),
        ("12-bad-regex.json", "invalidPattern", 3, 23, "response \"a\" has an invalid pattern \"^RETR (\\S+\": the '(' at character 7 is never closed"),
        ("13-unknown-token.json", "unknownToken", 3, 42, "responses.a.commands[0]: unknown token «closed» (known: «close», «data»"),
        ("14-unknown-pattern-token.json", "unknownToken", 3, 23, "responses.a.pattern: unknown token «first» (known: «initial»)"),
        ("15-negative-pause.json", "invalidValue", 3, 42, "responses.a.commands[0]: a pause must be from 0 to 86400 seconds, not -0.5"),
        ("16-huge-pause.json", "invalidValue", 3, 42, "responses.a.commands[0]: a pause must be from 0 to 86400 seconds"),
        ("17-empty-set.json", "emptySet", 2, 39, "set \"default\" has no responses"),
        ("18-missing-response.json", "missingResponse", 2, 45, "set \"default\" names the response \"b\", which the file does not define"),
        ("19-unknown-set-switch.json", "unknownSet", 3, 51, "there is no set \"elsewhere\" (sets: \"default\")"),
        ("20-misspelt-key.json", "unknownKey", 3, 29, "unknown key \"command\" in responses.a (known keys: pattern, commands, comment)"),
        ("21-missing-pattern.json", "missingKey", 3, 10, "responses.a has no \"pattern\""),
        ("22-bad-hex.json", "invalidValue", 3, 51, "responses.a.commands[0].hex: hex data must be pairs of hexadecimal digits"),
        ("23-bad-framing.json", "invalidValue", 2, 14, "framing: framing is one of lines, requests, messages, raw, not \"words\""),
        ("24-empty-file.json", "syntax", 1, 1, "JSON syntax error: expected a value but the file ended"),
        ("25-not-utf8.json", "notUTF8", 3, 9, "the file is not valid UTF-8 (byte offset 27)"),
        ("26-huge.json", "invalidPattern", 5003, 26, "response \"last\" has an invalid pattern \"[\": the '[' at character 1 is never closed"),
        ("27-continue-outside-head.json", "invalidValue", 3, 45, "responses.a.commands[0]: «continue» lets a waiting client send its body, so it belongs in a response with \"head\": true"),
        ("28-head-not-boolean.json", "wrongType", 3, 40, "responses.a.head must be true or false, not a string"),
        ("29-head-initial.json", "invalidValue", 3, 37, "responses.a.pattern: a \"head\": true response answers request heads, so it cannot be «initial»"),
        ("30-negative-data-delay.json", "invalidValue", 3, 60, "responses.a.commands[0].delay-data: a pause must be from 0 to 86400 seconds, not -2.0"),
        ("31-copy-without-to.json", "missingKey", 3, 45, "responses.a.commands[0] has no \"to\""),
        ("32-upload-settle-not-number.json", "wrongType", 3, 20, "upload-settle"),
        // A command of a protocol the script does not speak.
        ("33-ftp-in-http.json", "foreignCommand", 4, 53, "responses.list.commands[0]: «passive» is a command of FTP, and this script (scheme \"http\") speaks HTTP"),
        ("34-http-in-ftp.json", "foreignCommand", 5, 29, "responses.retr.commands[0]: {\"response\": …} is a command of HTTP, and this script (scheme \"ftp\") speaks FTP"),
        ("35-webdav-in-lines.json", "foreignCommand", 3, 46, "responses.get.commands[0]: «webdav» is a command of WebDAV, and this script has no scheme, so it may use the commands of FTP"),
    ]

    private static func url(_ file: String) -> URL { Fixtures.url("malformed/\(file)") }

    @Test("the library reports the kind, the place and the message", arguments: corpus)
    func library(file: String, kind: String, line: Int, column: Int, message: String) throws {
        do {
            let script = try ResponseScript(contentsOf: Self.url(file))
            try script.validate()
            Issue.record("\(file) should not load")
        } catch {
            #expect(String(describing: error.problem).hasPrefix(kind), "\(error)")
            #expect(error.location == JSONNode.Location(line: line, column: column), "\(error)")
            #expect(error.message.hasPrefix(message), "\(error.message)")
            #expect(error.description.hasPrefix("\(Self.url(file).path):\(line):\(column): "))
        }
    }

    @Test("mockserver --check exits 65 with FILE:LINE:COLUMN: message", arguments: corpus)
    func check(file: String, kind: String, line: Int, column: Int, message: String) throws {
        let path = Self.url(file).path
        let result = try Tools.run(Tools.mockserver.path, ["--check", path])
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("\(path):\(line):\(column): \(message)"), "\(result.stderr)")
    }

    @Test("diagnoses of patterns that do not compile", arguments: [
        ("(a", "the '(' at character 1 is never closed"),
        ("a)", "the ')' at character 2 has no '('"),
        ("[ab", "the '[' at character 1 is never closed"),
        ("*a", "the '*' at character 1 has nothing to repeat"),
        ("a(?", "the '(' at character 2 is never closed"),
        ("(?:a", "the '(' at character 1 is never closed"),
        ("(+a)", "the '+' at character 2 has nothing to repeat"),
        ("ab\\", "the pattern ends with a lone backslash"),
    ])
    func diagnoses(pattern: String, reason: String) {
        do {
            _ = try InputPattern(pattern)
            Issue.record("\(pattern) should not compile")
        } catch {
            #expect(error.reason == reason)
        }
    }

    @Test("valid patterns with brackets, escapes and quoting get no false diagnosis", arguments: ["[)(]", "\\(x\\)", "[]a]", "[^]]", "\\Q(\\E", "(a|b)+", "a{2,3}?"])
    func noFalseDiagnosis(pattern: String) throws {
        #expect(PatternDiagnosis.explain(pattern) == nil)
        _ = try InputPattern(pattern)
    }
}
