import Testing

/// ``TestClient``'s reads, each checked by ``PoolGuard`` first: kept out of TestClient.swift, which
/// Scripts/darwin-typecheck.sh type-checks against the Darwin headers without Testing.
extension TestClient {
    /// Reads one line, without its CRLF or LF.
    public func readLine(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        PoolGuard.check("TestClient.readLine", sourceLocation: sourceLocation)
        return try readLineHere()
    }

    /// Reads exactly `count` bytes.
    public func read(count: Int, sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
        PoolGuard.check("TestClient.read(count:)", sourceLocation: sourceLocation)
        return try readHere(count: count)
    }

    /// Reads until the server closes the connection and returns everything not yet read.
    public func readToEnd(sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
        PoolGuard.check("TestClient.readToEnd", sourceLocation: sourceLocation)
        return try readToEndHere()
    }
}
