import Foundation

/// A free note of the family's, listed by last change.
public struct Memo: Hashable, Sendable {
    public let id: MemoID
    public let familyID: FamilyID
    public var content: MemoContent
    public let createdAt: Date
    public var modifiedAt: Date

    public init(id: MemoID = MemoID(), familyID: FamilyID, content: MemoContent, createdAt: Date, modifiedAt: Date) {
        self.id = id
        self.familyID = familyID
        self.content = content
        self.createdAt = createdAt
        self.modifiedAt = modifiedAt
    }
}

public struct MemoContent: Hashable, Sendable {
    public var title: String
    public var body: String

    public init(title: String, body: String) throws(ValidationError) {
        self.title = try Validate.requiredText(title, field: "title", maxLength: EntryContent.maxTitleLength)
        self.body = try Validate.body(body, field: "body", maxLength: EntryContent.maxBodyLength)
    }
}
