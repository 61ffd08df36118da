import Diary
import Foundation

/// A memo as the API and `saessak memos --json` show it.
public struct MemoResource: Encodable {
    let id: MemoID
    let title: String
    let body: String
    let createdAt: Date
    let modifiedAt: Date

    public init(_ memo: Memo) {
        id = memo.id
        title = memo.content.title
        body = memo.content.body
        createdAt = memo.createdAt
        modifiedAt = memo.modifiedAt
    }
}
