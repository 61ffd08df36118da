import ArgumentParser
import Diary
import DiaryStore
import Foundation
import Secrets

struct Admin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Set up users, families and API tokens; maintain the data folder.",
        subcommands: [CreateUser.self, AddMember.self, CreateToken.self, RevokeToken.self, Reindex.self])
}

struct CreateUser: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create a user and a family they own.",
        discussion: """
            The password is read from the first line of standard input, so it stays out of the shell history:
              printf '%s\\n' 'correct horse' | saessak admin create-user --username mina --password-stdin
            """)

    @OptionGroup var data: DataOptions

    @Option(help: "Letters, digits, '.', '_' or '-'.")
    var username: String

    @Flag(help: "Read the password from standard input (required).")
    var passwordStdin = false

    @Option(help: "Create this family with the user as its owner (default: a family named after the user).")
    var family: String?

    func validate() throws {
        guard passwordStdin else { throw ArgumentParser.ValidationError("--password-stdin is required: pipe the password in") }
    }

    func run() async throws {
        guard let password = readLine(strippingNewline: true), !password.isEmpty else {
            throw CLIError("no password on standard input")
        }
        if let problem = PasswordHasher.problem(with: password) { throw CLIError("password \(problem)") }
        let database = try data.openOrCreate()
        let (user, family) = try await AccountStore(database).createUser(
            username: username, passwordHash: PasswordHasher().hash(password), familyName: family ?? username)
        print("created user '\(user.username)', owner of family '\(family.name)'")
    }
}

struct AddMember: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add an existing user to a family, or change their role in it.",
        discussion: """
            owner: everything, members and deletion included; editor: writes the diary, children and events (the \
            other parent); viewer: reads only (grandparents). A family always keeps at least one owner.
            """)

    @OptionGroup var data: DataOptions

    @Option(help: "The user to add.")
    var username: String

    @Option(help: "The family to add them to.")
    var family: String

    @Option(help: "owner, editor or viewer.")
    var role: Role

    func run() async throws {
        let database = try data.openExisting()
        let existed = try await AccountStore(database).addMember(username: username, familyName: family, role: role)
        print(existed ? "'\(username)' is now \(role.rawValue) of '\(family)'" : "added '\(username)' to '\(family)' as \(role.rawValue)")
    }
}

extension Role: ExpressibleByArgument {}

struct CreateToken: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Issue an API token for a user; prints the token and nothing else.",
        discussion: "The token is shown once; the server keeps only its hash. Send it as 'Authorization: Bearer <token>'.")

    @OptionGroup var data: DataOptions
    @OptionGroup var family: FamilyOption

    @Option(help: "The user the token acts for.")
    var username: String

    @Option(help: "A label to recognise the token by.")
    var name = "cli"

    @Option(help: "Limit the token to this role (owner, editor or viewer; default: the user's role).")
    var role: Role?

    func run() async throws {
        let database = try data.openExisting()
        let (token, _) = try await AccountStore(database).createToken(
            username: username, familyName: family.family, name: name, role: role)
        print(token)
    }
}

struct RevokeToken: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Revoke a user's API tokens by their label; they stop working at once.")

    @OptionGroup var data: DataOptions

    @Option(help: "The user whose tokens to revoke.")
    var username: String

    @Option(help: "Only tokens for this family (default: every family of the user).")
    var family: String?

    @Option(help: "The label the tokens were made with.")
    var name: String

    func run() async throws {
        let database = try data.openExisting()
        let count = try await AccountStore(database).revokeTokens(username: username, familyName: family, name: name)
        guard count > 0 else { throw CLIError("'\(username)' has no token named '\(name)'") }
        print("revoked \(count) token\(count == 1 ? "" : "s") named '\(name)'")
    }
}

struct Reindex: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Rebuild the search index from every entry and memo.",
        discussion: """
            The index is kept up to date with every write; rebuilding is for repairs and is safe while the server \
            runs (it is one transaction).
            """)

    @OptionGroup var data: DataOptions

    func run() async throws {
        let database = try data.openExisting()
        let counts = try await SearchStore(database).reindex()
        print("search index rebuilt: \(counts.entries) entries, \(counts.memos) memos")
    }
}
