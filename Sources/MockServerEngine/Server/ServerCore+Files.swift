import Foundation
import MockServerCore
import MockServerFileSystem
import MockServerScript

extension ServerCore {
    /// The substitution context for one step: `base` with the selected file's bytes (or the data).
    func substitutionContext(base: SubstitutionContext, selectedFile: String?) -> SubstitutionContext {
        var context = base
        let content = content()
        if let name = selectedFile {
            context.fileName = name
            context.data = content.files[name] ?? content.data
        } else {
            context.data = content.data
        }
        return context
    }
}
