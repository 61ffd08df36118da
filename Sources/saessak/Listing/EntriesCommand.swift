import ArgumentParser
import Diary
import Foundation
import Persistence
import Services

struct EntriesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "entries", abstract: "Diary entries of a family.", subcommands: [ListEntries.self, EntryVersions.self])
}

/// `saessak entries versions ID`: what each edit of an entry replaced, newest first.
struct EntryVersions: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "versions", abstract: "An entry's earlier versions, newest first (what each edit replaced).")

    @OptionGroup var data: DataOptions
    @OptionGroup var family: FamilyOption
    @OptionGroup var output: OutputOptions
    @Argument(help: "The entry (an id from 'saessak entries list').") var id: String

    func validate() throws {
        guard EntryID(id) != nil else { throw ArgumentParser.ValidationError("'\(id)' is not an entry id; see 'saessak entries list'") }
    }

    func run() async throws {
        guard let entry = EntryID(id) else { return }
        let database = try await data.openExisting()
        let familyID = try await database.stores.accounts.family(named: family.family).id
        let versions: [EntryVersion]
        do {
            versions = try await database.stores.entries.versions(family: familyID, id: entry)
        } catch StoreError.notFound {
            throw CLIError("no entry \(entry) in this family")
        }
        if output.json {
            print(try JSONShapes.text(ListResponse(items: versions.map(EntryVersionResource.init), next: nil)))
            return
        }
        for version in versions {
            let who = version.savedByName.map { " by \($0)" } ?? ""
            print("\(version.number)  saved \(StoredTimeText.minute(version.savedAt))\(who), replaced \(StoredTimeText.minute(version.replacedAt))  \(version.content.title)")
        }
    }
}

struct ListEntries: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List entries, newest first.")

    @OptionGroup var data: DataOptions
    @OptionGroup var family: FamilyOption
    @OptionGroup var output: OutputOptions

    @Option(help: "Only entries about this child (an id from 'saessak children list').")
    var child: String?

    @Option(help: "Only entries with this tag.")
    var tag: String?

    @Option(help: "Only entries of this month (YYYY-MM).")
    var month: String?

    @Option(help: "How many entries at most (1–200).")
    var limit = 50

    func validate() throws {
        if let child, ChildID(child) == nil {
            throw ArgumentParser.ValidationError("--child '\(child)' is not an id; see 'saessak children list'")
        }
        if let month, (try? YearMonth(iso: month)) == nil {
            throw ArgumentParser.ValidationError("--month '\(month)' is not a month in the form YYYY-MM")
        }
        guard PageCursor.limits.contains(limit) else {
            throw ArgumentParser.ValidationError("--limit must be \(PageCursor.limits.lowerBound)–\(PageCursor.limits.upperBound)")
        }
    }

    func run() async throws {
        let database = try await data.openExisting()
        let familyID = try await database.stores.accounts.family(named: family.family).id
        let filter = try TimelineFilter(childID: child.flatMap { ChildID($0) }, tag: tag, month: month, year: nil)
        let page = try await database.stores.entries.list(family: familyID, filter: filter, after: nil, limit: limit)
        if output.json {
            let children = try await database.stores.children.byID(family: familyID)
            let list = ListResponse(items: page.items.map { EntryResource($0, children: children) }, next: page.next?.description)
            print(try JSONShapes.text(list))
            return
        }
        let videos = try await database.stores.photos.videos(family: familyID, among: page.items.flatMap(\.photoIDs))
        for entry in page.items {
            let clips = entry.photoIDs.filter { videos[$0] != nil }.count
            let media = [(entry.photoIDs.count - clips, "📷"), (clips, "▶")].filter { $0.0 > 0 }.map { "\($0.1) \($0.0)" }
            print(
                "\(entry.id)  \(entry.content.date.iso.replacingOccurrences(of: "T", with: " "))  \(entry.content.title)"
                    + (media.isEmpty ? "" : "  " + media.joined(separator: " ")))
        }
    }
}
