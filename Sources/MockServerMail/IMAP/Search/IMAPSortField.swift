/// What SORT orders messages by (RFC 5256 §3, RFC 5957 for the display forms).
package enum IMAPSortField: String, Hashable, Sendable, CaseIterable {
    /// `ARRIVAL`: INTERNALDATE.
    case arrival = "ARRIVAL"
    /// `CC`: the mailbox part (before `@`) of the first `Cc` address.
    case cc = "CC"
    /// `DATE`: the `Date` field as an instant (UTC), INTERNALDATE when it is missing or not a date.
    case date = "DATE"
    /// `FROM`: the mailbox part of the first `From` address.
    case from = "FROM"
    /// `SIZE`: RFC822.SIZE.
    case size = "SIZE"
    /// `SUBJECT`: the base subject (RFC 5256 §2.1: `Re:`, `Fwd:`, `[list]`, `(fwd)` removed).
    case subject = "SUBJECT"
    /// `TO`: the mailbox part of the first `To` address.
    case to = "TO"
    /// `DISPLAYFROM`: the display name of the first `From` address, its address when it has none.
    case displayFrom = "DISPLAYFROM"
    /// `DISPLAYTO`: the display name of the first `To` address, its address when it has none.
    case displayTo = "DISPLAYTO"
}
