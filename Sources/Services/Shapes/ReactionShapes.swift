import Diary
import Foundation

/// A comment as the API and `saessak comments list --json` show it.
public struct CommentResource: Encodable {
    let id: CommentID
    let entryId: EntryID?
    let photoId: PhotoID?
    /// Null once the author's account is gone.
    let authorId: UserID?
    let authorName: String?
    let text: String
    let createdAt: Date
    let modifiedAt: Date

    public init(_ comment: Comment) {
        id = comment.id
        switch comment.target {
        case .entry(let entry): (entryId, photoId) = (entry, nil)
        case .photo(let photo): (entryId, photoId) = (nil, photo)
        }
        authorId = comment.authorID
        authorName = comment.authorName
        text = comment.text
        createdAt = comment.createdAt
        modifiedAt = comment.modifiedAt
    }
}

/// An entry's or photo's hearts: how many, whether one is the asker's, and whose they are in the order given.
public struct HeartsResource: Encodable {
    let count: Int
    let mine: Bool
    let members: [Member]

    struct Member: Encodable {
        let id: UserID
        let name: String
    }

    public init(_ hearts: [Heart], asker: UserID?) {
        count = hearts.count
        mine = hearts.contains { $0.userID == asker }
        members = hearts.map { Member(id: $0.userID, name: $0.userName) }
    }
}
