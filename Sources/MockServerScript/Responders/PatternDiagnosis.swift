/// Explains why a regular expression does not compile, for the common mistakes, because Foundation on
/// Linux reports only "error 2048" for all of them.
enum PatternDiagnosis {
    /// A sentence naming the first mistake found, with its 1-based character position, or `nil`.
    static func explain(_ pattern: String) -> String? {
        let characters = Array(pattern)
        var groups: [Int] = []
        var classStart: Int?
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "\\" {
                if index + 1 == characters.count { return "the pattern ends with a lone backslash" }
                if characters[index + 1] == "Q" {
                    // \Q…\E quotes everything up to \E.
                    var end = index + 2
                    while end + 1 < characters.count && !(characters[end] == "\\" && characters[end + 1] == "E") { end += 1 }
                    index = end + 2
                    continue
                }
                index += 2
                continue
            }
            if let start = classStart {
                if character == "]" && index > start + 1 && !(index == start + 2 && characters[start + 1] == "^") { classStart = nil }
                index += 1
                continue
            }
            switch character {
            case "[": classStart = index
            case "(": groups.append(index)
            case ")":
                if groups.popLast() == nil { return "the ')' at character \(index + 1) has no '('" }
            case "*", "+", "?":
                let previous = index > 0 ? characters[index - 1] : nil
                // "(?" opens a group construct such as (?: or (?i), not a quantifier.
                if character == "?" && previous == "(" { break }
                if previous == nil || previous == "(" || previous == "|" {
                    return "the '\(character)' at character \(index + 1) has nothing to repeat"
                }
            default: break
            }
            index += 1
        }
        if let start = classStart { return "the '[' at character \(start + 1) is never closed" }
        if let open = groups.last { return "the '(' at character \(open + 1) is never closed" }
        return nil
    }
}
