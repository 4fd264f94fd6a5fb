// TEMPORARY (never committed): stands in until the FETCH and SEARCH pieces merge.
extension IMAPSession {
    mutating func fetch(_ command: IMAPCommand, _ arguments: inout IMAPArguments, uid: Bool) throws(IMAPCommandError) -> [IMAPAction] { throw .no("pending") }
}
