import Foundation

/// When a file or folder was made and last changed.
package struct FileInfo: Sendable, Hashable {
    package var created: Date
    package var modified: Date

    package init(at date: Date) {
        created = date
        modified = date
    }
}
