import Diary
import Foundation
import Hummingbird
import Services

/// Comments and hearts on entries and single photos (`/entries/{id}/comments`, `/photos/{id}/hearts`, …). Every
/// member may comment and heart, viewers too (`Access.member`); a comment is changed by its author only and
/// deleted by its author or an owner.
struct ReactionsAPI {
    let store: any ReactionStore

    func register(on api: SecureRoutes) {
        for kind in ["entries", "photos"] {
            api.get("\(kind)/:id/comments", .viewer, statements: 9) { _, context in
                let comments = try await store.comments(family: try context.member().familyID, on: try Self.target(kind, context))
                return try JSONBody.response(ListResponse(items: comments.map(CommentResource.init), next: nil))
            }
            api.post("\(kind)/:id/comments", .member) { request, context in
                let body = try await request.decode(as: CommentBody.self, context: context)
                let comment = try await store.addComment(
                    family: try context.member().familyID, on: try Self.target(kind, context), author: try context.user(), text: body.text)
                await context.record(.created, comment)
                return try JSONBody.response(CommentResource(comment), status: .created)
            }
            api.get("\(kind)/:id/hearts", .viewer, statements: 9) { _, context in
                let hearts = try await store.hearts(family: try context.member().familyID, on: try Self.target(kind, context))
                return try JSONBody.response(HeartsResource(hearts, asker: context.userID))
            }
            api.put("\(kind)/:id/heart", .member) { _, context in try await heart(kind, context, on: true) }
            api.delete("\(kind)/:id/heart", .member) { _, context in try await heart(kind, context, on: false) }
        }
        api.get("comments/:id", .viewer, statements: 8) { _, context in
            try JSONBody.response(CommentResource(try await store.comment(family: try context.member().familyID, id: try context.id(of: "comment"))))
        }
        api.put("comments/:id", .member) { request, context in
            let member = try context.member()
            let id: CommentID = try context.id(of: "comment")
            let body = try await request.decode(as: CommentBody.self, context: context)
            try await Self.requireAuthor(store, family: member.familyID, id: id, user: try context.user(), owner: false)
            let comment = try await store.editComment(family: member.familyID, id: id, author: try context.user(), text: body.text)
            await context.record(.edited, comment)
            return try JSONBody.response(CommentResource(comment))
        }
        api.delete("comments/:id", .member) { _, context in
            let member = try context.member()
            let id: CommentID = try context.id(of: "comment")
            try await Self.requireAuthor(store, family: member.familyID, id: id, user: try context.user(), owner: member.role == .owner)
            let trashed = try await store.deleteComment(family: member.familyID, id: id, by: try context.user(), asOwner: member.role == .owner)
            return await TrashAPI.deleted(trashed, context)
        }
    }

    private func heart(_ kind: String, _ context: AppRequestContext, on: Bool) async throws -> Response {
        let user = try context.user()
        let hearts = try await store.setHeart(family: try context.member().familyID, on: try Self.target(kind, context), user: user, on: on)
        return try JSONBody.response(HeartsResource(hearts, asker: user))
    }

    static func target(_ kind: String, _ context: AppRequestContext) throws -> ReactionTarget {
        kind == "entries" ? .entry(try context.id(of: "entry")) : .photo(try context.id(of: "photo"))
    }

    /// The comment, when it is the asker's to change (or, `owner`, to delete): 403 saying so for someone else's,
    /// after a 404 for one that is not in the family at all.
    @discardableResult
    static func requireAuthor(_ store: any ReactionStore, family: FamilyID, id: CommentID, user: UserID, owner: Bool) async throws -> Comment {
        let comment = try await store.comment(family: family, id: id)
        guard comment.authorID == user || owner else {
            throw Problem(status: .forbidden, detail: "only its author can change a comment (an owner can delete it)")
        }
        return comment
    }
}

struct CommentBody: Decodable {
    let text: String
}

/// `GET /news` and `POST /news/read`: what is new to the asker, and marking it seen.
struct NewsAPI {
    let store: any NewsStore

    func register(on api: SecureRoutes) {
        api.get("news", .viewer, statements: 8) { _, context in
            let lines = try await store.news(family: try context.member().familyID, user: try context.user())
            return try JSONBody.response(NewsResource(items: lines.map {
                .init(authorId: $0.authorID, authorName: $0.authorName, entries: $0.entries, photos: $0.photos)
            }))
        }
        api.post("news/read", .member) { request, context in
            let family = try context.member().familyID
            let user = try context.user()
            let body = try await request.decode(as: ReadBody.self, context: context)
            if let ids = body.entryIds {
                guard ids.count <= 500 else { throw Problem(status: .unprocessableContent, detail: "entryIds: at most 500", field: "entryIds") }
                try await store.markRead(family: family, user: user, entries: ids)
            } else {
                try await store.markAllRead(family: family, user: user)
            }
            return Response(status: .noContent)
        }
    }

    struct ReadBody: Decodable {
        let entryIds: [EntryID]?
    }

    struct NewsResource: Encodable {
        let items: [Line]

        struct Line: Encodable {
            let authorId: UserID
            let authorName: String
            let entries: Int
            let photos: Int
        }
    }
}
