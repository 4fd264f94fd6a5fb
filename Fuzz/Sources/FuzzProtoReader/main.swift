// libFuzzer target: the .proto reader (tokenizer, parser, resolver, loader) and the descriptor-set
// reader and writer.
//
// The first byte picks the mode (bit 0). Properties:
// - .proto text: the rest of the input, split at its first NUL byte, is `a.proto` and `b.proto` (which
//   a.proto may import, as it may the built-in files). Loading either succeeds or throws a ProtoError
//   that names one of the files, with a line within that file and a column of at least 1; what loads
//   is written as descriptors that the descriptor reader reads back as the same files;
// - descriptor set: the rest is read as a FileDescriptorSet; what reads is written again and reads
//   back as itself.
import Foundation
import MockServerProtobuf
#if canImport(Glibc)
import Glibc
#endif

/// libFuzzer's driver: parses its options from the command line and calls `test` with each input.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                     _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// `files` with each field's `hasExplicitJSONName` as a descriptor can tell it (its JSON name is not the default).
func comparable(_ files: [ProtoFile]) -> [ProtoFile] {
    func clean(_ message: ProtoMessage) -> ProtoMessage {
        var message = message
        for index in message.fields.indices {
            message.fields[index].hasExplicitJSONName = message.fields[index].jsonName != ProtoField.lowerCamelCase(message.fields[index].name)
        }
        message.nestedMessages = message.nestedMessages.map(clean)
        return message
    }
    return files.map { file in
        var file = file
        file.messages = file.messages.map(clean)
        return file
    }
}

/// Loads `a.proto` (and `b.proto`) from memory and checks the error's place or the descriptors' round trip.
func fuzzText(_ input: [UInt8]) {
    let split = input.firstIndex(of: 0) ?? input.count
    let files = ["/p/a.proto": Array(input[..<split]), "/p/b.proto": Array(input[min(split + 1, input.count)...])]
    let loader = ProtoLoader(protoPaths: ["/p"], workingDirectory: "/") { files[$0] }
    do {
        let schema = try loader.load(["/p/a.proto"])
        let bytes = ProtoDescriptorWriter.fileDescriptorSet(schema.files)
        let read = try ProtoDescriptorReader.files(of: bytes, name: "set")
        precondition(comparable(read) == comparable(schema.files), "descriptors of what loaded read back differently")
    } catch {
        if error.line == 0 { return }
        let text = files["/p/" + error.file] ?? ProtoBuiltIns.files[error.file].map { Array($0.utf8) }
        precondition(text != nil, "an error in a file that was not read: \(error)")
        let lines = (text ?? []).reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
        precondition(error.line <= lines && error.column >= 1, "\(error) is outside the file (\(lines) lines)")
    }
}

/// Reads a descriptor set and checks that what it read writes and reads back as itself.
func fuzzDescriptorSet(_ input: [UInt8]) {
    guard let files = try? ProtoDescriptorReader.files(of: input, name: "set") else { return }
    let again = ProtoDescriptorWriter.fileDescriptorSet(files)
    guard let read = try? ProtoDescriptorReader.files(of: again, name: "again") else {
        preconditionFailure("a descriptor set written from what was read does not read")
    }
    precondition(read == files, "a descriptor set written from what was read reads back differently")
}

/// The target: bit 0 of the first byte picks the mode.
func fuzzProtoReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size >= 1 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if bytes[0] & 1 == 0 { fuzzText(Array(bytes[1...])) } else { fuzzDescriptorSet(Array(bytes[1...])) }
    return 0
}

// libFuzzer's own `main` is not used: SwiftPM makes this file the entry point, and it hands control to
// libFuzzer's driver with the function above as the target.
var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(runFuzzerDriver(&argc, &argv, fuzzProtoReader))
