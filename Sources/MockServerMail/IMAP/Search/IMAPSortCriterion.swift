/// One SORT criterion: a field, and whether `REVERSE` came before it.
package struct IMAPSortCriterion: Hashable, Sendable {
    /// What is compared.
    package var field: IMAPSortField
    /// Whether the order is descending for this field.
    package var reversed: Bool

    /// A criterion.
    package init(_ field: IMAPSortField, reversed: Bool = false) {
        self.field = field
        self.reversed = reversed
    }
}
