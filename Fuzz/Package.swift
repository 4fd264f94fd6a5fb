// swift-tools-version:6.0
// libFuzzer targets for the framers and the response-file loader. Not part of the main package:
// they are built with `-sanitize=fuzzer,address -parse-as-library`, which the main package's
// executables cannot take. Run them with `Scripts/fuzz.sh` from the repository root.
import PackageDescription

let package = Package(
    name: "MockServerFuzz",
    dependencies: [.package(name: "MockServer", path: "..")],
    targets: [
        .executableTarget(name: "FuzzFraming", dependencies: [.product(name: "MockServer", package: "MockServer")]),
        .executableTarget(name: "FuzzResponseFile", dependencies: [.product(name: "MockServer", package: "MockServer")]),
    ],
    swiftLanguageModes: [.v6]
)
