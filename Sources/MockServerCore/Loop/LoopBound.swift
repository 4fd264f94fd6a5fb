/// A reference to something that lives on an event loop's thread, carried through a task so that
/// it can be handed back to that loop.
///
/// A task only holds the box and passes it back through ``LoopInbox/execute(_:)``, whose closure
/// runs on the loop, and only there is ``value`` read.
/// Kept: wraps a value never touched off its loop's thread, which no type can say (swift-nio's
/// `NIOLoopBound` is `@unchecked Sendable` too).
package struct LoopBound<Value: AnyObject>: @unchecked Sendable {
    package let value: Value

    package init(_ value: Value) {
        self.value = value
    }
}
