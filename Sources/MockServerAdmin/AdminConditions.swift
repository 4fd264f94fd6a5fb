import Foundation
import MockServerEngine
import MockServerCore

/// Network conditions as the control API reads and writes them (`GET`, `PUT`, `DELETE /conditions`),
/// read as Core's ``NetworkConditionsJSON`` reads them everywhere:
///
/// ```json
/// {"toClient": {"latency": 0.2, "jitter": 0.05, "bytesPerSecond": 65536, "sliceSize": 100, "sliceDelay": 0.01, "dataLimit": 100000},
///  "toServer": {"bytesPerSecond": 16384}, "slowClose": 1, "timeout": 30, "resetAfter": 5, "probability": 0.5}
/// ```
///
/// Times are seconds (fractions allowed); every key is optional.
enum AdminConditions {
    /// Why a body is not conditions.
    struct Problem: Error {
        let message: String
    }

    /// The conditions a request body describes.
    ///
    /// - Throws: ``Problem`` naming the key at fault and where it is, or the JSON syntax error.
    static func decode(_ body: [UInt8]) throws(Problem) -> NetworkConditions {
        let value: JSONNode
        do {
            value = try JSONReader.parse(body, options: .strict)
        } catch {
            throw Problem(message: "the body is not JSON: \(error.message) (at \(error.location))")
        }
        do {
            return try NetworkConditionsJSON.decode(value)
        } catch {
            throw Problem(message: "\(error.message) (at \(error.location))")
        }
    }

    /// `conditions` as the JSON object `GET /conditions` answers (`{}` for none).
    static func encode(_ conditions: NetworkConditions?) -> JSONNode {
        guard let conditions else { return .object([:]) }
        func direction(_ direction: NetworkConditions.Direction) -> JSONNode {
            var object: [String: JSONNode] = [:]
            if direction.latency != .zero { object["latency"] = .number(direction.latency.inSeconds) }
            if direction.jitter != .zero { object["jitter"] = .number(direction.jitter.inSeconds) }
            if let rate = direction.bytesPerSecond { object["bytesPerSecond"] = .number(rate) }
            if let size = direction.sliceSize { object["sliceSize"] = .number(size); object["sliceDelay"] = .number(direction.sliceDelay.inSeconds) }
            if let limit = direction.dataLimit { object["dataLimit"] = .number(limit) }
            if direction.probability < 1 { object["probability"] = .number(direction.probability) }
            return .object(object)
        }
        var object: [String: JSONNode] = ["toClient": direction(conditions.toClient), "toServer": direction(conditions.toServer), "probability": .number(conditions.probability)]
        if conditions.slowClose != .zero { object["slowClose"] = .number(conditions.slowClose.inSeconds) }
        if let timeout = conditions.timeout { object["timeout"] = .number(timeout.inSeconds) }
        if let resetAfter = conditions.resetAfter { object["resetAfter"] = .number(resetAfter.inSeconds) }
        return .object(object)
    }
}
