import MockServerCore

/// The open WebSocket connections of one event loop, so that the server can push a message to
/// them from outside any script (``MockServer/sendWebSocketMessage(_:toConnection:)``, the admin
/// API's `POST /websocket/send`).
///
/// Kept as the loop's attachment and used on the loop's thread alone.
package final class WebSocketConnections {
    /// Each open connection's driver, by connection number.
    private var open: [Int: (driver: WebSocketConnectionDriver, connection: StreamConnection)] = [:]

    package init() {}

    /// Adds a connection whose handshake is done.
    func add(_ driver: WebSocketConnectionDriver, on connection: StreamConnection) {
        open[connection.id] = (driver, connection)
    }

    /// Forgets a connection that closed or began its close handshake.
    func remove(_ id: Int) {
        open[id] = nil
    }

    /// The numbers of the connections open now, in order.
    package var ids: [Int] { open.keys.sorted() }

    /// Sends `message` to the connection numbered `id`, or to every open one when `id` is `nil`,
    /// after whatever each has queued; the numbers of those it reached.
    package func push(_ message: WebSocketConnection.Message, to id: Int?) -> [Int] {
        let targets = id.map { id in open[id].map { [(id, $0)] } ?? [] } ?? open.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        for (_, entry) in targets { entry.driver.push(message, on: entry.connection) }
        return targets.map(\.0)
    }
}
