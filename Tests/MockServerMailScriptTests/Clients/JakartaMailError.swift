/// Why the Jakarta Mail program could not be used (javac failed, or its folder could not be made).
struct JakartaMailError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
