import Foundation

/// What an entry said before an edit replaced it: every edit keeps the version it replaced, so a grandparent who
/// overwrote a paragraph cannot lose it (docs/trash.md, "Earlier versions").
public struct EntryVersion: Hashable, Sendable {
    public let entryID: EntryID
    /// 1 for the first version the entry had, counting up with each edit.
    public let number: Int
    public let content: EntryContent
    public let photoIDs: [PhotoID]
    /// When this version was saved (the entry written, or the edit that made it) and by whom, while known.
    public let savedAt: Date
    public let savedBy: UserID?
    public let savedByName: String?
    /// The edit that replaced it.
    public let replacedAt: Date
    public let replacedBy: UserID?

    public init(
        entryID: EntryID, number: Int, content: EntryContent, photoIDs: [PhotoID], savedAt: Date, savedBy: UserID?, savedByName: String?,
        replacedAt: Date, replacedBy: UserID?
    ) {
        self.entryID = entryID
        self.number = number
        self.content = content
        self.photoIDs = photoIDs
        self.savedAt = savedAt
        self.savedBy = savedBy
        self.savedByName = savedByName
        self.replacedAt = replacedAt
        self.replacedBy = replacedBy
    }

    /// How many versions an entry keeps at least: the newest 50, and every one younger than a year.
    public static let keptAtLeast = 50
    public static let keptFor: TimeInterval = 365 * 86_400
}
