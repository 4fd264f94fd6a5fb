// libFuzzer target: the WebDAV XML reader (what PROPFIND, PROPPATCH and LOCK bodies go through).
//
// Properties checked:
// - no crash, whatever the bytes (deep nesting, entities, namespaces, bad UTF-8);
// - a refusal says why;
// - what reads is a tree whose XML text (as PROPFIND gives a dead property back) reads again, and
//   gives the same text the second time.
import MockServerWebDAV
#if canImport(Glibc)
import Glibc
#endif

/// libFuzzer's driver: parses its options from the command line and calls `test` with each input.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                     _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

func fuzzWebDAVXML(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let root: WebDAVXMLNode
    do {
        root = try XMLReader.parse(bytes)
    } catch {
        precondition(!error.message.isEmpty, "a refusal without a reason")
        return 0
    }
    precondition(root.qualifiedName != nil, "the root is not an element: \(root)")
    let text = root.xml
    let again: WebDAVXMLNode
    do {
        again = try XMLReader.parse(Array(text.utf8))
    } catch {
        preconditionFailure("the XML of what was read does not read again: \(text): \(error.message)")
    }
    precondition(again.xml == text, "the XML of what was read changes when read again: \(text) vs \(again.xml)")
    return 0
}

// libFuzzer's own `main` is not used: SwiftPM makes this file the entry point, and it hands control to
// libFuzzer's driver with the function above as the target.
var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(runFuzzerDriver(&argc, &argv, fuzzWebDAVXML))
