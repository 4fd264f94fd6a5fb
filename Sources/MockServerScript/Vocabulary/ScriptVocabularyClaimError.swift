extension ScriptVocabulary {
    /// Why ``ScriptVocabulary/adding(_:)`` refused a protocol: a scheme it claims is claimed already.
    ///
    /// ```swift
    /// do { _ = try ScriptVocabulary.standard.adding(MyHTTP()) } catch { print(error) }
    /// // "MyHTTP" claims the scheme "http", which "HTTP" claims already
    /// ```
    public struct ClaimError: Error, CustomStringConvertible, Equatable {
        /// The scheme both claim, in lower case.
        public let scheme: String
        /// The name of the protocol of the vocabulary that claims it.
        public let claimant: String
        /// The name of the protocol that was being added.
        public let newcomer: String

        /// The error of `newcomer`'s claim on `scheme`, which `claimant` has.
        package init(scheme: String, claimant: String, newcomer: String) {
            self.scheme = scheme
            self.claimant = claimant
            self.newcomer = newcomer
        }

        /// `"NEWCOMER" claims the scheme "SCHEME", which "CLAIMANT" claims already`.
        public var description: String {
            "\"\(newcomer)\" claims the scheme \"\(scheme)\", which \"\(claimant)\" claims already"
        }
    }
}
