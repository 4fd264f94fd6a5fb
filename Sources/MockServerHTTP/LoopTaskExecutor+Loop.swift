import MockServerCore

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension LoopTaskExecutor {
    /// The executor of `loop`'s answer tasks, made at its first use and kept as the loop's
    /// attachment: the HTTP/1.1 and HTTP/2 drivers run a responder's `async` answer on it, so that
    /// it never waits for Swift's cooperative pool. On the loop's thread only.
    package static func of(_ loop: EventLoop) -> LoopTaskExecutor {
        loop.attachment(LoopTaskExecutor.self) { LoopTaskExecutor(inbox: loop.inbox) }
    }
}
