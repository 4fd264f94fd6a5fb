import MockServer
import MockServerAdmin

extension RunningServer {
    /// Serves `target`'s control API on loopback `port` (whatever `--host` says, and never the
    /// mock's own port), keeps it to stop with the rest, and prints `mockserver admin on http://127.0.0.1:PORT/`.
    /// `/shutdown` stops the process here, on ``queue``, not in the responder.
    ///
    /// - Throws: ``AdminRouteClash`` when a protocol's route clashes with another; ``CommandLineError/cannotListen(_:)``.
    func serveAdmin(for server: MockServer, stubs: HTTPMockServer? = nil, initialEndpoints: [UInt8]? = nil, initialSet: String? = nil, port: UInt16) throws {
        let target = AdminResponder.Target(server: server, stubs: stubs, initialEndpoints: initialEndpoints, initialSet: initialSet) { [self] in
            queue.async { self.stopAndExit() }
        }
        let admin = MockServer(httpResponder: try AdminResponder(target), configuration: .init(host: "127.0.0.1", port: port))
        do {
            try admin.start()
        } catch {
            throw CommandLineError.cannotListen(error)
        }
        queue.sync { self.admin = admin }
        write("mockserver admin on http://127.0.0.1:\(admin.port)/\n", to: .standardOutput)
    }
}
