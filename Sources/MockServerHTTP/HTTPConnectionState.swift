import MockServerCore

/// Values that a responder keeps for one connection, across its requests (a script's response
/// set, say). Safe to use from any thread.
package typealias HTTPConnectionState = SharedValues
