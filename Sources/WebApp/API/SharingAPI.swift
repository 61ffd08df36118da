import Diary
import Foundation
import Hummingbird
import Persistence
import Services

/// `/api/v1/invitations` (owners) and `/api/v1/share-links` (owners and editors). The link's URL is in the
/// answer that made it, and nowhere else: only its hash is kept.
struct SharingAPI {
    let store: any SharingStore

    struct InvitationRequest: Decodable {
        let role: Role
        let expiresInDays: Int?
    }

    struct InvitationResource: Encodable {
        let id: InvitationID
        let role: Role
        let createdAt: Date
        let expiresAt: Date
        let acceptedAt: Date?
        /// Who made it, so an owner sees which links to revoke.
        let createdBy: String?
        let url: String?

        init(_ invitation: Invitation, url: String? = nil) {
            id = invitation.id
            role = invitation.role
            createdAt = invitation.createdAt
            expiresAt = invitation.expiresAt
            acceptedAt = invitation.acceptedAt
            createdBy = invitation.createdByName
            self.url = url
        }
    }

    struct ShareRequest: Decodable {
        let entryIds: [EntryID]
        let label: String?
        let expiresInDays: Int?
    }

    struct ShareLinkResource: Encodable {
        let id: ShareLinkID
        let label: String?
        let entryIds: [EntryID]
        let createdAt: Date
        let expiresAt: Date
        let url: String?

        init(_ link: ShareLink, url: String? = nil) {
            id = link.id
            label = link.label
            entryIds = link.entryIDs
            createdAt = link.createdAt
            expiresAt = link.expiresAt
            self.url = url
        }
    }

    func register(on api: SecureRoutes) {
        api.post("invitations", .owner) { [store] request, context in
            let body = try await request.decode(as: InvitationRequest.self, context: context)
            let (token, invitation) = try await store.invite(
                by: try context.member(), role: body.role, days: try Invitation.lifetime.checked(body.expiresInDays))
            await context.record(.invited, invitation)
            return try JSONBody.response(
                InvitationResource(invitation, url: Links.absolute(request, "/invite/\(token)")), status: .created)
        }
        api.get("invitations", .owner, statements: 8) { [store] _, context in
            let invitations = try await store.invitations(family: try context.member().familyID)
            return try JSONBody.response(ListResponse(items: invitations.map { InvitationResource($0) }, next: nil))
        }
        api.delete("invitations/:id", .owner) { [store] _, context in
            let id: InvitationID = try context.id(of: "invitation")
            try await store.revokeInvitation(id, family: try context.member().familyID)
            await context.record(.revoked, .invitation, id: id.description)
            return Response(status: .noContent)
        }
        api.post("share-links", .editor) { [store] request, context in
            let body = try await request.decode(as: ShareRequest.self, context: context)
            let label = try Validate.optionalName(body.label, field: "label", maxLength: EntryContent.maxTitleLength)
            let (token, link) = try await store.share(
                by: try context.member(), entries: try ShareLink.entries(body.entryIds), label: label,
                days: try ShareLink.lifetime.checked(body.expiresInDays))
            await context.record(.created, link, detail: "\(link.entryIDs.count)")
            return try JSONBody.response(ShareLinkResource(link, url: Links.absolute(request, "/s/\(token)")), status: .created)
        }
        api.get("share-links", .editor, statements: 9) { [store] _, context in
            let links = try await store.shareLinks(family: try context.member().familyID)
            return try JSONBody.response(ListResponse(items: links.map { ShareLinkResource($0) }, next: nil))
        }
        api.delete("share-links/:id", .editor) { [store] _, context in
            let id: ShareLinkID = try context.id(of: "share link")
            try await store.revokeShareLink(id, family: try context.member().familyID)
            await context.record(.revoked, .shareLink, id: id.description)
            return Response(status: .noContent)
        }
    }
}

/// Absolute URLs of this site, as the browser that asked reaches it.
enum Links {
    static func absolute(_ request: Request, _ path: String) -> String {
        let scheme = WebCredentials.isSecure(request) ? "https" : "http"
        return "\(scheme)://\(request.head.authority ?? "localhost")\(path)"
    }
}
