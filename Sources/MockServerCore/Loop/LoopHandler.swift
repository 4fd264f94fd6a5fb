/// Something registered with the event loop: a listener or a connection.
///
/// Handlers live on the loop's thread only.
package protocol LoopHandler: AnyObject {
    /// Reacts to readiness of the handler's descriptor.
    func handle(_ readiness: Readiness)
    /// Closes the handler's descriptor for `reason`, recording it.
    func close(_ reason: Transcript.CloseReason)
}
