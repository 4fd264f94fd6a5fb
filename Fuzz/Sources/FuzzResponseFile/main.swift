// libFuzzer target: the response-file loader (its JSON reader, the decoder, pattern compilation)
// and the responder built from what it loads.
//
// Properties checked:
// - no crash, whatever the bytes;
// - a rejected file's error has a location inside the file (line 1 or more, column 1 or more, no
//   further than one line past the last) and a message;
// - a loaded file's every set either makes a responder or reports why, and that responder answers
//   a few inputs, heads and connections without crashing.
import MockServer
import MockServerHTTPScript
#if canImport(Glibc)
import Glibc
#endif

/// libFuzzer's driver: parses its options from the command line and calls `test` with each input.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                     _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

func fuzzResponseFile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let script: ResponseScript
    do {
        script = try ResponseScript(json: bytes, file: "fuzz.json")
    } catch {
        check(error, in: bytes)
        return 0
    }
    let context = SubstitutionContext(data: Array("data".utf8))
    let inputs = [InputUnit("USER anonymous"), InputUnit("RETR file.txt"), InputUnit("GET / HTTP/1.1\r\nHost: x\r\n\r\n"), InputUnit(bytes: [0xFF, 0x00, 0x0D])]
    for name in script.setNames {
        let responder: PatternResponder
        do {
            responder = try PatternResponder(script: script, set: name)
        } catch {
            check(error, in: bytes)
            continue
        }
        var session = ScriptSession(connectionID: 1)
        _ = responder.connected(session: &session, context: context)
        for input in inputs {
            _ = responder.respond(to: input, session: &session, context: context)
            _ = responder.respond(toHead: input, session: &session, context: context)
        }
    }
    do {
        try script.validate()
    } catch {
        check(error, in: bytes)
    }
    return 0
}

func check(_ error: ResponseFileError, in bytes: [UInt8]) {
    precondition(!error.message.isEmpty, "an error without a message: \(error.problem)")
    guard let location = error.location else { return }
    let lines = bytes.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
    precondition(location.line >= 1 && location.column >= 1 && location.line <= lines + 1,
                 "an error outside the file: \(location) in \(lines) lines: \(error)")
}

// libFuzzer's own `main` is not used: SwiftPM makes this file the entry point, and it hands control to
// libFuzzer's driver with the function above as the target.
var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(runFuzzerDriver(&argc, &argv, fuzzResponseFile))
