import Diary

/// A child named on the command line: by id, name or nickname (`saessak vaccines CHILD`, `saessak book CHILD`).
enum ChildLookup {
    static func find(_ text: String, family: FamilyID, in stores: DiaryStores) async throws -> Child {
        let children = try await Page.all { try await stores.children.list(family: family, after: $0, limit: $1) }
        let matches = children.filter { $0.id.description == text.lowercased() || $0.profile.name == text || $0.profile.nickname == text }
        guard let found = matches.first else { throw CLIError("no child named or numbered '\(text)' in this family") }
        guard matches.count == 1 else { throw CLIError("several children are named '\(text)': give the ID (saessak children list)") }
        return found
    }
}
