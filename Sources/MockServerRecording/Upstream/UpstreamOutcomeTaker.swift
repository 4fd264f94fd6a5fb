/// What takes an ``UpstreamExchange``'s outcome, once, on the loop's thread: an object rather than
/// a closure, so that the code answering a request on the loop is one allocation that also holds
/// what the answer needs (the recorder's ``RecorderLoopAnswer``).
protocol UpstreamOutcomeTaker: AnyObject {
    /// The upstream's answer, or why there is none.
    func take(_ outcome: Result<UpstreamResponse, UpstreamError>)
}
