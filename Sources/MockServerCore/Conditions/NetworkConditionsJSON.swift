/// Network conditions written as JSON, one spelling for every place that reads them: a response
/// file's or an endpoints file's top-level `conditions`, and the control API's `PUT /conditions`.
///
/// ```json
/// {"toClient": {"latency": 0.2, "jitter": 0.05, "bytesPerSecond": 65536, "sliceSize": 100, "sliceDelay": 0.01, "dataLimit": 100000, "probability": 0.5},
///  "toServer": {"bytesPerSecond": 16384}, "slowClose": 1, "timeout": 30, "resetAfter": 5, "probability": 0.5}
/// ```
///
/// Times are seconds (fractions allowed); every key is optional.
package enum NetworkConditionsJSON {
    /// Why a value is not conditions: the message names the key at fault, and where it is.
    package struct Problem: Error, Sendable {
        package let message: String
        package let location: JSONNode.Location
    }

    private static let directionKeys = ["latency", "jitter", "bytesPerSecond", "sliceSize", "sliceDelay", "dataLimit", "probability"]
    private static let topKeys = ["toClient", "toServer", "slowClose", "timeout", "resetAfter", "probability"]

    /// The conditions `value` describes.
    package static func decode(_ value: JSONNode) throws(Problem) -> NetworkConditions {
        let object = try members(value, name: "conditions", known: topKeys)
        var conditions = NetworkConditions()
        if let value = object["toClient"] { conditions.toClient = try direction(value, name: "toClient") }
        if let value = object["toServer"] { conditions.toServer = try direction(value, name: "toServer") }
        if let value = object["slowClose"] { conditions.slowClose = try seconds(value, name: "slowClose") }
        if let value = object["timeout"] { conditions.timeout = try seconds(value, name: "timeout") }
        if let value = object["resetAfter"] { conditions.resetAfter = try seconds(value, name: "resetAfter") }
        if let value = object["probability"] { conditions.probability = try probability(value, name: "probability") }
        return conditions
    }

    /// An object's members by key, refusing keys not in `known`.
    private static func members(_ value: JSONNode, name: String, known: [String]) throws(Problem) -> [String: JSONNode] {
        guard case .object(let members) = value.kind else { throw Problem(message: "\(name) must be an object", location: value.location) }
        var object: [String: JSONNode] = [:]
        for member in members {
            guard known.contains(member.key) else {
                let path = name == "conditions" ? member.key : "\(name).\(member.key)"
                throw Problem(message: "unknown key \"\(path)\" (known: \(known.joined(separator: ", ")))", location: member.keyLocation)
            }
            object[member.key] = member.value
        }
        return object
    }

    private static func direction(_ value: JSONNode, name: String) throws(Problem) -> NetworkConditions.Direction {
        let object = try members(value, name: name, known: directionKeys)
        var direction = NetworkConditions.Direction()
        if let value = object["latency"] { direction.latency = try seconds(value, name: "\(name).latency") }
        if let value = object["jitter"] { direction.jitter = try seconds(value, name: "\(name).jitter") }
        if let value = object["sliceDelay"] { direction.sliceDelay = try seconds(value, name: "\(name).sliceDelay") }
        if let value = object["bytesPerSecond"] { direction.bytesPerSecond = try count(value, name: "\(name).bytesPerSecond") }
        if let value = object["sliceSize"] { direction.sliceSize = try count(value, name: "\(name).sliceSize") }
        if let value = object["dataLimit"] { direction.dataLimit = try count(value, name: "\(name).dataLimit") }
        if let value = object["probability"] { direction.probability = try probability(value, name: "\(name).probability") }
        return direction
    }

    private static func probability(_ value: JSONNode, name: String) throws(Problem) -> Double {
        guard case .number(let number) = value.kind, number >= 0, number <= 1 else {
            throw Problem(message: "\(name) must be a number from 0 to 1", location: value.location)
        }
        return number
    }

    private static func seconds(_ value: JSONNode, name: String) throws(Problem) -> Duration {
        guard case .number(let number) = value.kind, number.isFinite, number >= 0, number <= 86400 else {
            throw Problem(message: "\(name) must be seconds from 0 to 86400", location: value.location)
        }
        return .rounded(seconds: number)
    }

    private static func count(_ value: JSONNode, name: String) throws(Problem) -> Int {
        guard case .number(let number) = value.kind, number == number.rounded(), number >= 1, number <= Double(Int32.max) else {
            throw Problem(message: "\(name) must be a whole number from 1 to \(Int32.max)", location: value.location)
        }
        return Int(number)
    }
}
