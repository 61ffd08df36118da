import Foundation

extension String {
    /// The text without surrounding white space, or nil when nothing is left: what a blank form field means.
    var nonBlank: String? {
        let trimmed = trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }
}
