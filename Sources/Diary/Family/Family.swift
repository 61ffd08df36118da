import Foundation

/// A family owns its children and everything written about them; every other record belongs to exactly one.
public struct Family: Hashable, Sendable {
    public let id: FamilyID
    public var name: String
    public let createdAt: Date

    public static let maxNameLength = 100

    public init(id: FamilyID = FamilyID(), name: String, createdAt: Date) throws(ValidationError) {
        self.id = id
        self.name = try Validate.name(name, field: "family", maxLength: Self.maxNameLength)
        self.createdAt = createdAt
    }
}

/// What a member may do in a family.
public enum Role: String, CaseIterable, Sendable, Codable {
    /// Everything, including members and deletion.
    case owner
    /// Writes the diary, children and events (the other parent).
    case editor
    /// Reads only (grandparents and relatives).
    case viewer

    /// Whether this role may do what `required` may (owner ⊇ editor ⊇ viewer).
    public func includes(_ required: Role) -> Bool { rank >= required.rank }

    /// The lesser of two roles: what a token made with `limit` may do for a member with this role.
    public func limited(to limit: Role?) -> Role {
        guard let limit else { return self }
        return includes(limit) ? limit : self
    }

    private var rank: Int {
        switch self {
        case .viewer: 0
        case .editor: 1
        case .owner: 2
        }
    }
}

/// A person who signs in. Passwords are kept only as a hash, by the `Secrets` module.
public struct User: Hashable, Sendable {
    public let id: UserID
    public let username: String
    public let createdAt: Date

    public init(id: UserID = UserID(), username: String, createdAt: Date) throws(ValidationError) {
        self.id = id
        self.username = try User.validUsername(username)
        self.createdAt = createdAt
    }

    /// 1–64 characters from letters, digits, `.`, `_` and `-`, nothing invisible (`mom` + U+3164 passed for `mom`), in
    /// one alphabet or a combination people write (`mоm` with a Cyrillic о did too; `LookAlikes`); compared without
    /// regard to letter case. A name that looks like another user's is refused where users are made (the stores).
    public static func validUsername(_ name: String) throws(ValidationError) -> String {
        guard (1...64).contains(name.unicodeScalars.count),
            name.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0) })
        else {
            throw ValidationError(field: "username", "must be 1–64 letters, digits, '.', '_' or '-' (got '\(String(name.unicodeScalars.prefix(64)))')")
        }
        if let hidden = LookAlikes.invisible(in: name) { throw ValidationError(field: "username", .invisible(hidden.value)) }
        guard LookAlikes.isSingleScript(name) else { throw ValidationError(field: "username", .mixedScripts) }
        return name
    }
}

/// A bearer token for the API, acting for one member of one family, with at most that member's role (or a lesser
/// one it was made with: a read-only token for a photo frame). Only its hash is stored.
public struct APIToken: Hashable, Sendable {
    public let id: APITokenID
    public let userID: UserID
    public let familyID: FamilyID
    public let name: String
    /// nil: whatever role the member has.
    public let role: Role?
    public let createdAt: Date

    public static let maxNameLength = 100

    public init(
        id: APITokenID = APITokenID(), userID: UserID, familyID: FamilyID, name: String, role: Role? = nil,
        createdAt: Date
    ) {
        self.id = id
        self.userID = userID
        self.familyID = familyID
        self.name = name
        self.role = role
        self.createdAt = createdAt
    }

    /// A token a member makes for themselves (the API's way), limited to `role`, which must not exceed theirs.
    /// Never unlimited: a token without a role would act with the user's whole role, so a viewer token could mint an
    /// owner's (issue 17); it gets the role of whoever made it, as far as they may act now.
    public init(issuedBy member: Membership, name: String, role: Role?, at time: Date) throws(ValidationError) {
        let name = try Validate.name(name, field: "name", maxLength: Self.maxNameLength)
        if let role, !member.role.includes(role) {
            throw ValidationError(field: "role", "a \(member.role.rawValue) cannot make a token for a \(role.rawValue)")
        }
        self.init(userID: member.userID, familyID: member.familyID, name: name, role: role ?? member.role, createdAt: time)
    }
}

/// A user's place in a family: who, which family, which role. Requests act as one membership and every store query is scoped by its family.
public struct Membership: Hashable, Sendable {
    public let userID: UserID
    public let familyID: FamilyID
    public let role: Role

    public init(userID: UserID, familyID: FamilyID, role: Role) {
        self.userID = userID
        self.familyID = familyID
        self.role = role
    }
}
