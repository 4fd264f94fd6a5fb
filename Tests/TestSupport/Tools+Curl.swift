import Foundation
import Testing

extension Tools {
    /// Runs curl, the tests' one curl runner: quiet but for errors (`-sS`), and given up after
    /// `maxTime` seconds (`--max-time`), so that a server that never answers fails the test instead
    /// of hanging it. The default is a minute, as `Tools.run`'s: a 5 MiB upload took more than 20 s
    /// on a two-core machine running the whole suite beside three compilers (load average 23).
    public static func curl(maxTime: Int = 60, _ arguments: [String], input: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> Result {
        try run("curl", ["-sS", "--max-time", String(maxTime)] + arguments, timeout: TimeInterval(maxTime + 30), input: input, sourceLocation: sourceLocation)
    }
}
