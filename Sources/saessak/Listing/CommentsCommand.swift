import ArgumentParser
import Diary
import Foundation
import Persistence
import Services

struct CommentsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "comments", abstract: "The family's comments and hearts.", subcommands: [ListComments.self])
}

/// `saessak comments list --entry ID` (or `--photo ID`): the comments in order, then who gave a heart.
struct ListComments: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List an entry's or a photo's comments, oldest first, and its hearts.")

    @OptionGroup var data: DataOptions
    @OptionGroup var family: FamilyOption
    @OptionGroup var output: OutputOptions

    @Option(help: "The entry (an id from 'saessak entries list').") var entry: String?
    @Option(help: "The photo (an id from 'saessak photos list').") var photo: String?

    func validate() throws {
        guard (entry == nil) != (photo == nil) else { throw ArgumentParser.ValidationError("give --entry or --photo (one of them)") }
        if let entry, EntryID(entry) == nil { throw ArgumentParser.ValidationError("--entry '\(entry)' is not an id; see 'saessak entries list'") }
        if let photo, PhotoID(photo) == nil { throw ArgumentParser.ValidationError("--photo '\(photo)' is not an id; see 'saessak photos list'") }
    }

    var target: ReactionTarget? {
        if let entry, let id = EntryID(entry) { return .entry(id) }
        if let photo, let id = PhotoID(photo) { return .photo(id) }
        return nil
    }

    func run() async throws {
        guard let target else { return }
        let database = try await data.openExisting()
        let familyID = try await database.stores.accounts.family(named: family.family).id
        let store = database.stores.reactions
        let comments: [Comment]
        let hearts: [Heart]
        do {
            comments = try await store.comments(family: familyID, on: target)
            hearts = try await store.hearts(family: familyID, on: target)
        } catch StoreError.notFound {
            throw CLIError("no \(target.kind) \(target.id) in this family")
        }
        if output.json {
            print(try JSONShapes.text(Listing(comments: comments.map(CommentResource.init), hearts: HeartsResource(hearts, asker: nil))))
            return
        }
        for comment in comments {
            let when = StoredTimeText.minute(comment.createdAt)
            print("\(comment.id)  \(when)  \(comment.authorName ?? "(a former member)"): \(comment.text)")
        }
        print("♥ \(hearts.count)" + (hearts.isEmpty ? "" : "  " + hearts.map(\.userName).joined(separator: ", ")))
    }

    struct Listing: Encodable {
        let comments: [CommentResource]
        let hearts: HeartsResource
    }
}

/// `2026-11-24 10:30` in Seoul: when a comment was written, as the listing shows it.
enum StoredTimeText {
    static func minute(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "Asia/Seoul")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }
}
