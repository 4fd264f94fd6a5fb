/// Why a FETCH's items or modifiers could not be read: the text of the `BAD` answer, naming the
/// culprit.
package enum IMAPFetchError: Error, Sendable, Hashable {
    /// Nothing after the sequence set.
    case missingItems
    /// An empty `()` list of items.
    case emptyItemList
    /// An atom that is no FETCH item (or a macro inside a list), as sent.
    case unknownItem(String)
    /// A value where an item was expected (a quoted string, a literal, a nested list).
    case unexpectedValue
    /// A section that cannot be read, as sent between the brackets, and why.
    case badSection(String, reason: String)
    /// A partial where it is not allowed or in the `<offset>` form a server sends, for the item named.
    case badPartial(String)
    /// A modifier list that is not `(CHANGEDSINCE n [VANISHED])`, and what was wrong.
    case badModifier(String)
    /// `VANISHED` without `CHANGEDSINCE` (RFC 7162 §3.2.6).
    case vanishedWithoutChangedSince
    /// Something after the modifier list.
    case trailingArguments

    /// The text of the `BAD` answer.
    package var text: String {
        switch self {
        case .missingItems: return "FETCH needs data items after the sequence set."
        case .emptyItemList: return "FETCH data item list is empty."
        case .unknownItem(let name): return "Unknown FETCH data item \(name)."
        case .unexpectedValue: return "Expected a FETCH data item, not a string or nested list."
        case .badSection(let section, let reason): return "Invalid section [\(section)]: \(reason)."
        case .badPartial(let item): return "Invalid <offset.size> partial after \(item)."
        case .badModifier(let reason): return "Invalid FETCH modifier: \(reason)."
        case .vanishedWithoutChangedSince: return "VANISHED needs CHANGEDSINCE."
        case .trailingArguments: return "Unexpected arguments after the FETCH modifiers."
        }
    }
}
