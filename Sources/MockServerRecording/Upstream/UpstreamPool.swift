import MockServerCore

/// The upstream connections of one loop: idle ones are kept for the next request to the same
/// address (keep-alive), so that a recording under load does not open a connection per request.
///
/// Lives on the loop's thread, as the loop's attachment; never touched elsewhere.
final class UpstreamPool {
    private let loop: EventLoop
    private var idle: [String: [UpstreamDriver]] = [:]
    /// Idle connections kept per address at most; more are closed.
    private let idleLimit = 256

    init(loop: EventLoop) {
        self.loop = loop
    }

    /// The pool of `loop`, made at its first use.
    static func of(_ loop: EventLoop) -> UpstreamPool {
        loop.attachment(UpstreamPool.self) { UpstreamPool(loop: loop) }
    }

    /// Sends `exchange` on an idle connection to its address, or on a new one (an HTTP/2 exchange
    /// always on a new one, closed after its answer).
    func send(_ exchange: UpstreamExchange) {
        if let request = exchange.http2 {
            let driver = HTTP2UpstreamDriver(exchange, request: request)
            do {
                let connection = try StreamConnection.connect(to: exchange.address, loop: loop, driver: driver, recordsOutput: false)
                expire(exchange) { [weak connection] in connection?.close(.failed("the upstream did not answer in time")) }
            } catch {
                exchange.finish(.failure(.connectionFailed(address: exchange.address.description, reason: "\(error)")))
            }
            return
        }
        let driver: UpstreamDriver
        if let reused = takeIdle(for: exchange.address) {
            driver = reused
            reused.send(exchange)
        } else {
            driver = UpstreamDriver(connecting: exchange, pool: self)
            do {
                let connection = try StreamConnection.connect(to: exchange.address, loop: loop, driver: driver, recordsOutput: false)
                driver.attach(connection)
            } catch {
                exchange.finish(.failure(.connectionFailed(address: exchange.address.description, reason: "\(error)")))
                return
            }
        }
        expire(exchange) { [weak driver] in driver?.connection?.close(.failed("the upstream did not answer in time")) }
    }

    /// Fails `exchange` once its timeout passes without an answer, and then `close`s its connection.
    private func expire(_ exchange: UpstreamExchange, close: @escaping () -> Void) {
        loop.schedule(after: exchange.timeout) {
            guard exchange.isPending else { return }
            let seconds = exchange.timeout.inSeconds
            exchange.finish(.failure(.timedOut(address: exchange.address.description, seconds: seconds)))
            close()
        }
    }

    /// Sends `exchange` again, on a new connection (its reused one closed before it was answered).
    func retry(_ exchange: UpstreamExchange) {
        let driver = UpstreamDriver(connecting: exchange, pool: self)
        do {
            let connection = try StreamConnection.connect(to: exchange.address, loop: loop, driver: driver, recordsOutput: false)
            driver.attach(connection)
        } catch {
            exchange.finish(.failure(.connectionFailed(address: exchange.address.description, reason: "\(error)")))
        }
    }

    private func takeIdle(for address: SocketAddress) -> UpstreamDriver? {
        let key = address.description
        while let driver = idle[key]?.popLast() {
            if driver.isIdle { return driver }
        }
        return nil
    }

    /// Keeps `driver`'s connection for the next request to its address.
    func release(_ driver: UpstreamDriver) {
        let address = driver.address.description
        if idle[address, default: []].count >= idleLimit {
            driver.connection?.close(.finished("too many idle upstream connections"))
            return
        }
        idle[address, default: []].append(driver)
    }

    /// Drops `driver` (its connection closed).
    func forget(_ driver: UpstreamDriver) {
        idle[driver.address.description]?.removeAll { $0 === driver }
    }
}
