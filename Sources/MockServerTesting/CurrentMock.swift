import MockServer

/// The mocks of the running test, as task-locals: bound by the traits (`.httpMockServer`,
/// `.mockServer`) and by the `with…MockServer` helpers around what they run, and read through
/// `HTTPMockServer.current` and `MockServer.current`. A child task inherits them; a detached task
/// does not.
enum CurrentMock {
    /// The stub server of the innermost `.httpMockServer` or `withHTTPMockServer` around the task.
    @TaskLocal static var http: HTTPMockServer?
    /// The script server of the innermost `.mockServer` or `withMockServer` around the task.
    @TaskLocal static var script: MockServer?

    /// The error `current` throws outside every scope that binds a mock of its kind.
    struct Missing: Error, CustomStringConvertible {
        /// `HTTPMockServer.current` or `MockServer.current`.
        let getter: String
        /// The trait and the helper that bind it, as a user writes them.
        let trait: String
        let helper: String

        var description: String {
            "\(getter) is read outside a test that has its mock: add the trait to the test, @Test(\(trait)), "
                + "or to its suite, @Suite(\(trait)); or read it inside \(helper). "
                + "A detached task (Task.detached) does not inherit it: pass the server to it instead."
        }
    }
}
