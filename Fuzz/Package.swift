// swift-tools-version:6.0
// libFuzzer targets for every parser that reads a peer's bytes, and for the response-file loader.
// Not part of the main package: they link libFuzzer's driver and are built with AddressSanitizer and
// coverage, which the main package's executables cannot take. Run them with `Scripts/fuzz.sh` from the
// repository root.
import Foundation
import PackageDescription

/// The `package` name SwiftPM gives the main package's modules: its folder's name (its identity) as
/// a C identifier. The targets that fuzz `package` symbols (the framers, the WebSocket frame parser, the
/// WebDAV XML reader, FTP's argument parsing, the JSON reader, HPACK and HTTP/2's frames, the script responder's answers to request heads, protobuf's wire format and JSON mapping, the .proto reader) compile under that name rather than this
/// package's, so that those symbols need not become public or SPI for the fuzzers' sake.
let mainPackageName: String = {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()
    var name = String(folder.unicodeScalars.map { scalar in
        ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_" ? Character(scalar) : "_"
    })
    if let first = name.unicodeScalars.first, ("0"..."9").contains(first) { name = "_" + name }
    return name
}()

/// A fuzz target that sees the main package's `package` symbols.
func packageFuzzTarget(_ name: String) -> Target {
    .executableTarget(name: name, dependencies: [.product(name: "MockServer", package: "MockServer")], packageAccess: false,
                      swiftSettings: [.unsafeFlags(["-package-name", mainPackageName])])
}

let package = Package(
    name: "MockServerFuzz",
    dependencies: [.package(name: "MockServer", path: "..")],
    targets: [
        packageFuzzTarget("FuzzFraming"),
        packageFuzzTarget("FuzzResponseFile"),
        packageFuzzTarget("FuzzWebSocket"),
        packageFuzzTarget("FuzzWebDAVXML"),
        packageFuzzTarget("FuzzFTPArguments"),
        packageFuzzTarget("FuzzAdminJSON"),
        packageFuzzTarget("FuzzHPACK"),
        packageFuzzTarget("FuzzHTTP2Frames"),
        packageFuzzTarget("FuzzMail"),
        packageFuzzTarget("FuzzIMAP"),
        packageFuzzTarget("FuzzProtoWire"),
        packageFuzzTarget("FuzzProtoReader"),
    ],
    swiftLanguageModes: [.v6]
)
