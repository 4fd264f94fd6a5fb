extension ProtoError {
    /// Runs `body`, which throws only ``ProtoError``s, as a function typed to throw them: the
    /// reader's internals throw untyped errors and only its entry points are typed.
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
