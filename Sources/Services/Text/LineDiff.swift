/// What changed between two texts, line by line: the lines both keep, those only the first had and those only the
/// second has, in reading order (a longest common subsequence of lines). The versions page marks a body's changes
/// with it.
public enum LineDiff {
    public enum Change: Equatable, Sendable {
        case kept(String)
        case removed(String)
        case added(String)
    }

    /// Texts longer than this many lines each are compared as two wholes (the table would be their product).
    public static let maxLines = 2_000

    public static func compare(_ old: String, _ new: String) -> [Change] {
        let before = lines(old), after = lines(new)
        if before == after { return before.map(Change.kept) }
        guard before.count <= maxLines, after.count <= maxLines else { return before.map(Change.removed) + after.map(Change.added) }
        // lengths[i][j]: the longest run both keep of before[i...] and after[j...].
        var lengths = Array(repeating: Array(repeating: 0, count: after.count + 1), count: before.count + 1)
        for i in stride(from: before.count - 1, through: 0, by: -1) {
            for j in stride(from: after.count - 1, through: 0, by: -1) {
                lengths[i][j] = before[i] == after[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var changes: [Change] = []
        var (i, j) = (0, 0)
        while i < before.count, j < after.count {
            if before[i] == after[j] {
                changes.append(.kept(before[i]))
                i += 1
                j += 1
            } else if lengths[i + 1][j] >= lengths[i][j + 1] {
                changes.append(.removed(before[i]))
                i += 1
            } else {
                changes.append(.added(after[j]))
                j += 1
            }
        }
        changes += before[i...].map(Change.removed) + after[j...].map(Change.added)
        return changes
    }

    private static func lines(_ text: String) -> [String] {
        text.isEmpty ? [] : text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
}
