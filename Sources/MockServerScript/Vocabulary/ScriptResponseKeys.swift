import MockServerCore

/// A ``ScriptProtocol`` that reads keys of its own in a response of a response file, beside
/// `pattern`, `commands` and `comment` (HTTP's `"head": true`), into typed values of its own: the
/// response's traits, which its commands see in ``ScriptDecoding/traits`` while they are read, and
/// its driver on the ``ResponseEntry``.
///
/// A key of a protocol that the script does not speak is an error at the key, as a foreign
/// command is.
package protocol ScriptResponseKeys: ScriptProtocol {
    /// The keys it reads in a response (`head`).
    var responseKeys: [String] { get }

    /// The traits that `members` (those of ``responseKeys`` the response has, in file order;
    /// called only when there is one) give the response whose pattern is `pattern`, written at
    /// `patternLocation`.
    ///
    /// - Throws: ``ResponseFileError`` naming what is wrong, at the offending value.
    func responseTraits(_ members: [JSONNode.Member], pattern: InputPattern, at patternLocation: JSONNode.Location,
                        in decoding: ScriptDecoding) throws(ResponseFileError) -> [any Sendable]
}
