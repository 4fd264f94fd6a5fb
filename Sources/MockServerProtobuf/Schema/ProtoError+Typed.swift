extension ProtoError {
    /// Runs `body`, which throws only ``ProtoError``s, as a function typed to throw them.
    ///
    /// The reader's internals throw untyped errors and only its entry points are typed: with typed
    /// throws all the way down, the fuzz build (debug, AddressSanitizer, coverage; Swift 6.3)
    /// miscompiled the error paths of the recursive loader and the parser (a file's options left
    /// unreleased, then a release of freed memory when an import was not found: FuzzProtoReader).
    static func typed<Result>(_ body: () throws -> Result) throws(ProtoError) -> Result {
        do {
            return try body()
        } catch let error as ProtoError {
            throw error
        } catch {
            preconditionFailure("the .proto reader threw \(error), which is not a ProtoError")
        }
    }
}
