import Foundation

/// Where a resource file that the build copied into a bundle was copied from, so that an error about
/// the copy can also name the file to edit (the copy under `.build` is overwritten by the next build).
///
/// SwiftPM copies a target's resources into `<Package>_<Target>.resources/` (Linux) or
/// `<Package>_<Target>.bundle/` (Apple platforms, perhaps with `Contents/Resources/`), keeping the
/// path they had under the target's folder. The source is found by walking up from the bundle to
/// the folder that holds `Package.swift` and looking under `Tests/<Target>/` and `Sources/<Target>/`
/// (a `.process` resource, which loses its folders, is looked for anywhere in the target's folder).
/// Nothing is found for a bundle outside a package (an Xcode build) or a target with its own `path:`.
package enum ResourceSource {
    /// The source of the resource file at `path` (absolute, or relative to the current directory);
    /// `nil` when `path` is not in a resource bundle, no package holds the bundle, or no source file
    /// exists.
    package static func sourceFile(ofCopy path: String) -> String? {
        let components = URL(fileURLWithPath: path).standardizedFileURL.pathComponents
        guard let index = components.lastIndex(where: isBundle) else { return nil }
        var relative = Array(components[(index + 1)...])
        if relative.starts(with: ["Contents", "Resources"]) { relative.removeFirst(2) }
        guard !relative.isEmpty, let root = packageRoot(above: Array(components[..<index])) else { return nil }
        let name = components[index].split(separator: ".", omittingEmptySubsequences: false).dropLast().joined(separator: ".")
        let files = FileManager.default
        // `<Package>_<Target>`: either name may hold `_`, so every split is tried, the longest target first.
        for (offset, character) in name.enumerated() where character == "_" {
            let target = String(name.dropFirst(offset + 1))
            for folder in ["Tests", "Sources"] {
                let targetFolder = root.appendingPathComponent(folder).appendingPathComponent(target)
                let direct = relative.reduce(targetFolder) { $0.appendingPathComponent($1) }
                if files.fileExists(atPath: direct.path) { return direct.path }
                let suffix = "/" + relative.joined(separator: "/")
                let found = (files.enumerator(atPath: targetFolder.path)?.allObjects as? [String] ?? [])
                    .filter { ("/" + $0).hasSuffix(suffix) }
                if found.count == 1 { return targetFolder.appendingPathComponent(found[0]).path }
            }
        }
        return nil
    }

    /// What an error about the copy at `path` ends with when its source is found:
    /// ` (a copy of SOURCE:LINE:COLUMN, the file to edit)`, `place` being `:LINE:COLUMN`, `:LINE` or
    /// empty; `""` when there is no source.
    package static func note(forCopy path: String, source: String? = nil, place: String = "") -> String {
        guard let source = source ?? sourceFile(ofCopy: path) else { return "" }
        return " (a copy of \(source)\(place), the file to edit)"
    }

    /// Whether a path component names a SwiftPM resource bundle: `<Package>_<Target>.resources` or `.bundle`.
    private static func isBundle(_ component: String) -> Bool {
        (component.hasSuffix(".resources") || component.hasSuffix(".bundle")) && component.contains("_")
    }

    /// The nearest folder at or above `components` that holds `Package.swift`.
    private static func packageRoot(above components: [String]) -> URL? {
        var folder = components
        while !folder.isEmpty {
            let url = URL(fileURLWithPath: NSString.path(withComponents: folder), isDirectory: true)
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
            folder.removeLast()
        }
        return nil
    }
}
