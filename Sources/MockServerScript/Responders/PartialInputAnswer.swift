/// A response trait (``ScriptResponseKeys``) saying that its response answers a part of an input
/// unit that a protocol's driver asks about (HTTP's request heads), not whole units:
/// ``PatternResponder/respond(to:session:context:)`` passes such responses by, and
/// ``PatternResponder/respond(toPart:answeredBy:session:)`` finds them.
package protocol PartialInputAnswer: Sendable {}
