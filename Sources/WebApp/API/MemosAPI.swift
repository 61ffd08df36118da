import Diary
import Foundation
import Persistence
import Services

/// `/api/v1/memos`, most recently changed first.
struct MemosAPI {
    let store: any MemoStore

    var routes: CollectionRoutes<Memo, Memo, MemoPayload, MemoResource> {
        let store = store
        return CollectionRoutes(
            path: "memos", statements: (list: 8, item: 8),
            list: { family, query in
                let paging = try query.paging()
                return try await store.list(family: family, after: paging.cursor, limit: paging.limit)
            },
            get: { family, id in try await store.get(family: family, id: id) },
            create: { family, payload in try await store.create(family: family, content: try payload.content()) },
            update: { family, _, id, payload in try await store.update(family: family, id: id, content: try payload.content()) },
            delete: { family, user, id in try await store.delete(family: family, id: id, by: user) },
            resource: MemoResource.init)
    }
}

struct MemoPayload: Decodable {
    let title: String
    let body: String?

    func content() throws -> MemoContent { try MemoContent(title: title, body: body ?? "") }
}

