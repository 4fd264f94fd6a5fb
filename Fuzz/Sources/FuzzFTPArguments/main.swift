// libFuzzer target: the arguments of a client's FTP commands, through the pure code that reads them:
// `PORT`/`EPRT` addresses (FTPAddress), and `«ftp»`'s file commands (FTPFileSystem: `REST` offsets,
// `RETR`, `STOR` and `APPE` with what the data connection brings, `SIZE`, `MDTM`, `CWD`, `LIST`,
// `RNFR`/`RNTO`, paths with `.` and `..`).
//
// The first byte picks the mode: even, the rest is one address argument; odd, the rest is a session
// of command lines (LF-separated), each upload storing the 3 bytes "abc" at the offset the answer
// names. Properties checked:
// - no crash, whatever the bytes;
// - an address read has a host and a port above 0, and a PORT address written back reads the same;
// - every reply is one or more CRLF-terminated lines starting with a three-digit code;
// - every path resolved is absolute, without `.` or `..` segments;
// - a download from a `REST` offset is the end of the file, and an upload's offset is never negative.
import Foundation
import MockServerFTP
import MockServerFileSystem
#if canImport(Glibc)
import Glibc
#endif

/// libFuzzer's driver: parses its options from the command line and calls `test` with each input.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                     _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

let start = Date(timeIntervalSince1970: 1_704_110_400)

func checkAddress(_ argument: String) {
    guard let address = try? FTPAddress.parse(argument) else { return }
    precondition(!address.host.isEmpty && address.port > 0, "an address without a host or port: \(address) from \(argument)")
    let octets = address.host.split(separator: ".", omittingEmptySubsequences: false).compactMap { UInt8($0) }
    if octets.count == 4 && !argument.contains("|") {
        let written = octets.map(String.init).joined(separator: ",") + ",\(address.port >> 8),\(address.port & 0xFF)"
        let again = try? FTPAddress.parse(written)
        precondition(again?.host == address.host && again?.port == address.port, "a PORT address does not read back: \(written)")
    }
}

func checkReply(_ text: String, after line: String) {
    let lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
    precondition(text.hasSuffix("\r\n") && lines.count >= 2, "a reply not ending in CRLF: \(text) (for \(line))")
    let code = lines[0].prefix(3)
    precondition(code.count == 3 && code.allSatisfy(\.isNumber), "a reply without a code: \(text) (for \(line))")
}

func checkPath(_ path: String, from argument: String) {
    precondition(path.hasPrefix("/"), "a relative path: \(path) from \(argument)")
    let segments = path.split(separator: "/")
    precondition(!segments.contains(".") && !segments.contains(".."), "a path with . or ..: \(path) from \(argument)")
}

func runSession(_ bytes: ArraySlice<UInt8>) {
    var files: [String: [UInt8]] = ["/a.txt": Array("abcdef".utf8), "docs/b.txt": Array("b".utf8), "/empty/": []]
    var times = FileTimes(origin: start)
    var session = FTPSessionState()
    for rawLine in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).prefix(64) {
        let line = String(decoding: rawLine, as: UTF8.self)
        var system = FTPFileSystem(files: files, times: times, data: Array("DATA".utf8), now: start)
        let restart = session.restartOffset
        let answer = system.answer(line, session: &session)
        files = system.files
        times = system.times
        precondition(session.restartOffset >= 0, "a negative restart offset \(session.restartOffset) after \(line)")
        let argument = String(line.drop { $0 != " " }.dropFirst())
        checkPath(FTPFileSystem.resolve(argument, in: session.directory), from: argument)
        switch answer {
        case .reply(let text):
            checkReply(text, after: line)
        case .download(let preliminary, let content, let final):
            checkReply(preliminary, after: line)
            checkReply(final, after: line)
            if line.uppercased().hasPrefix("RETR ") {
                // What RETR sends is the end of a file (or of the data) from the REST offset.
                let sources = Array(files.values) + [Array("DATA".utf8)]
                precondition(sources.contains { $0.count - restart == content.count && $0.suffix(content.count).elementsEqual(content) },
                             "RETR after REST \(restart) sent \(content.count) bytes that end no file (\(line))")
            }
        case .upload(let preliminary, let path, let offset, let final):
            checkReply(preliminary, after: line)
            checkReply(final, after: line)
            checkPath(path, from: line)
            precondition(offset >= 0, "an upload at a negative offset \(offset) after \(line)")
            var store = FTPFileSystem(files: files, times: times, data: [], now: start)
            store.store(Array("abc".utf8), at: path, offset: offset)
            files = store.files
            times = store.times
        }
    }
}

func fuzzFTPArguments(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    if input[0] & 1 == 0 {
        checkAddress(String(decoding: input[1...], as: UTF8.self))
    } else {
        runSession(input[1...])
    }
    return 0
}

// libFuzzer's own `main` is not used: SwiftPM makes this file the entry point, and it hands control to
// libFuzzer's driver with the function above as the target.
var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(runFuzzerDriver(&argc, &argv, fuzzFTPArguments))
