import Foundation
import MockServer

/// Network conditions as the control API reads and writes them (`GET`, `PUT`, `DELETE /conditions`):
///
/// ```json
/// {"toClient": {"latency": 0.2, "jitter": 0.05, "bytesPerSecond": 65536, "sliceSize": 100, "sliceDelay": 0.01, "dataLimit": 100000},
///  "toServer": {"bytesPerSecond": 16384}, "slowClose": 1, "timeout": 30, "resetAfter": 5, "probability": 0.5}
/// ```
///
/// Times are seconds (fractions allowed); every key is optional.
enum AdminConditions {
    /// Why a body is not conditions, naming the key at fault.
    struct Problem: Error {
        let message: String
    }

    private static let directionKeys = ["latency", "jitter", "bytesPerSecond", "sliceSize", "sliceDelay", "dataLimit"]
    private static let topKeys = ["toClient", "toServer", "slowClose", "timeout", "resetAfter", "probability"]

    static func decode(_ object: [String: Any]) throws(Problem) -> NetworkConditions {
        var conditions = NetworkConditions()
        for key in object.keys.sorted() where !topKeys.contains(key) {
            throw Problem(message: "unknown key \"\(key)\" (known: \(topKeys.joined(separator: ", ")))")
        }
        if let value = object["toClient"] { conditions.toClient = try direction(value, name: "toClient") }
        if let value = object["toServer"] { conditions.toServer = try direction(value, name: "toServer") }
        if let value = object["slowClose"] { conditions.slowClose = try seconds(value, name: "slowClose") }
        if let value = object["timeout"] { conditions.timeout = try seconds(value, name: "timeout") }
        if let value = object["resetAfter"] { conditions.resetAfter = try seconds(value, name: "resetAfter") }
        if let value = object["probability"] {
            guard let number = value as? Double, number >= 0, number <= 1 else { throw Problem(message: "probability must be a number from 0 to 1") }
            conditions.probability = number
        }
        return conditions
    }

    private static func direction(_ value: Any, name: String) throws(Problem) -> NetworkConditions.Direction {
        guard let object = value as? [String: Any] else { throw Problem(message: "\(name) must be an object") }
        for key in object.keys.sorted() where !directionKeys.contains(key) {
            throw Problem(message: "unknown key \"\(name).\(key)\" (known: \(directionKeys.joined(separator: ", ")))")
        }
        var direction = NetworkConditions.Direction()
        if let value = object["latency"] { direction.latency = try seconds(value, name: "\(name).latency") }
        if let value = object["jitter"] { direction.jitter = try seconds(value, name: "\(name).jitter") }
        if let value = object["sliceDelay"] { direction.sliceDelay = try seconds(value, name: "\(name).sliceDelay") }
        if let value = object["bytesPerSecond"] { direction.bytesPerSecond = try count(value, name: "\(name).bytesPerSecond") }
        if let value = object["sliceSize"] { direction.sliceSize = try count(value, name: "\(name).sliceSize") }
        if let value = object["dataLimit"] { direction.dataLimit = try count(value, name: "\(name).dataLimit") }
        return direction
    }

    private static func seconds(_ value: Any, name: String) throws(Problem) -> Duration {
        guard let number = value as? Double, number.isFinite, number >= 0, number <= 86400 else {
            throw Problem(message: "\(name) must be seconds from 0 to 86400")
        }
        return .nanoseconds(Int64((number * 1e9).rounded()))
    }

    private static func count(_ value: Any, name: String) throws(Problem) -> Int {
        guard let number = value as? Double, number == number.rounded(), number >= 1, number <= Double(Int32.max) else {
            throw Problem(message: "\(name) must be a whole number from 1 to \(Int32.max)")
        }
        return Int(number)
    }

    static func encode(_ conditions: NetworkConditions?) -> [String: Any] {
        guard let conditions else { return [:] }
        func seconds(_ duration: Duration) -> Double {
            let (whole, fraction) = duration.components
            return Double(whole) + Double(fraction) / 1e18
        }
        func direction(_ direction: NetworkConditions.Direction) -> [String: Any] {
            var object: [String: Any] = [:]
            if direction.latency != .zero { object["latency"] = seconds(direction.latency) }
            if direction.jitter != .zero { object["jitter"] = seconds(direction.jitter) }
            if let rate = direction.bytesPerSecond { object["bytesPerSecond"] = rate }
            if let size = direction.sliceSize { object["sliceSize"] = size; object["sliceDelay"] = seconds(direction.sliceDelay) }
            if let limit = direction.dataLimit { object["dataLimit"] = limit }
            return object
        }
        var object: [String: Any] = ["toClient": direction(conditions.toClient), "toServer": direction(conditions.toServer), "probability": conditions.probability]
        if conditions.slowClose != .zero { object["slowClose"] = seconds(conditions.slowClose) }
        if let timeout = conditions.timeout { object["timeout"] = seconds(timeout) }
        if let resetAfter = conditions.resetAfter { object["resetAfter"] = seconds(resetAfter) }
        return object
    }
}
