import MockServerCore

/// The upstream connections of one loop: idle ones are kept for the next request to the same
/// address (keep-alive), so that a recording under load does not open a connection per request.
///
/// Lives on the loop's thread, as the loop's attachment; never touched elsewhere.
final class UpstreamPool {
    private let loop: EventLoop
    /// The idle connections of each address, in a list searched by equality: a recording has one
    /// upstream, and a key made of the address's text cost a `String` at every request.
    private var idle: [(address: NetworkAddress, drivers: [UpstreamDriver])] = []
    /// Idle connections kept per address at most; more are closed.
    private let idleLimit = 256
    /// The https upstreams (by address) that chose HTTP/1.1 when offered `h2`: their later
    /// exchanges take pooled connections, offering nothing.
    private var declinesHTTP2: Set<String> = []

    init(loop: EventLoop) {
        self.loop = loop
    }

    /// The pool of `loop`, made at its first use.
    static func of(_ loop: EventLoop) -> UpstreamPool {
        loop.attachment(UpstreamPool.self) { UpstreamPool(loop: loop) }
    }

    /// Sends `exchange` on an idle connection to its address, or on a new one; the connection
    /// fails it when its ``UpstreamExchange/deadline`` passes first. An HTTP/2 exchange always goes
    /// on a new connection, closed after its answer, with a deadline timer of its own; one to an
    /// https upstream offers `h2` through ALPN on a new connection, which joins the pool when the
    /// upstream chooses HTTP/1.1 instead (and then its later ones go as HTTP/1.1 from the start).
    func send(_ exchange: UpstreamExchange) {
        if exchange.http2 != nil && exchange.tls != nil && !declinesHTTP2.contains(exchange.address.description) {
            open(for: exchange)
            return
        }
        if let request = exchange.http2, exchange.tls == nil {
            let driver = HTTP2UpstreamDriver(exchange, request: request)
            do {
                let connection = try StreamConnection.connect(to: exchange.address, loop: loop, driver: driver, recordsOutput: false)
                loop.schedule(at: exchange.deadline) { [weak connection] in
                    if exchange.isPending { exchange.timeOut(closing: connection) }
                }
            } catch {
                exchange.finish(.failure(.connectionFailed(address: exchange.address.description, reason: "\(error)")))
            }
            return
        }
        if let reused = takeIdle(for: exchange.address) {
            reused.send(exchange)
        } else {
            open(for: exchange)
        }
    }

    /// Sends `exchange` on a new connection (also to retry it when its reused one closed before it
    /// was answered).
    func open(for exchange: UpstreamExchange) {
        let driver = UpstreamDriver(connecting: exchange, pool: self, loop: loop)
        do {
            let connection = try StreamConnection.connect(to: exchange.address, loop: loop, driver: driver, recordsOutput: false)
            driver.attach(connection)
        } catch {
            exchange.finish(.failure(.connectionFailed(address: exchange.address.description, reason: "\(error)")))
        }
    }

    private func takeIdle(for address: NetworkAddress) -> UpstreamDriver? {
        guard let slot = idle.firstIndex(where: { $0.address == address }) else { return nil }
        while let driver = idle[slot].drivers.popLast() {
            if driver.isIdle { return driver }
        }
        return nil
    }

    /// Notes that the upstream at `address` chose HTTP/1.1 when offered `h2`.
    func declinedHTTP2(_ address: NetworkAddress) {
        declinesHTTP2.insert(address.description)
    }

    /// Keeps `driver`'s connection for the next request to its address.
    func release(_ driver: UpstreamDriver) {
        guard let slot = idle.firstIndex(where: { $0.address == driver.address }) else {
            idle.append((driver.address, [driver]))
            return
        }
        if idle[slot].drivers.count >= idleLimit {
            driver.connection?.close(.finished("too many idle upstream connections"))
            return
        }
        idle[slot].drivers.append(driver)
    }

    /// Drops `driver` (its connection closed).
    func forget(_ driver: UpstreamDriver) {
        guard let slot = idle.firstIndex(where: { $0.address == driver.address }) else { return }
        idle[slot].drivers.removeAll { $0 === driver }
    }
}
