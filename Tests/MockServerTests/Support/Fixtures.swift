import Foundation

/// The response files under `Tests/MockServerTests/Fixtures`.
enum Fixtures {
    static func url(_ name: String) -> URL {
        Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures")!
    }
}
