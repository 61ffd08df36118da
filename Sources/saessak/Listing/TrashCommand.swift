import ArgumentParser
import Diary
import Foundation
import Logging
import Persistence
import Services

/// `saessak trash`: what the family deleted, until it is restored or purged (docs/trash.md).
struct TrashCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trash", abstract: "What the family deleted: list it, put it back, or delete it for good.",
        subcommands: [ListTrash.self, RestoreTrash.self, PurgeTrash.self, EmptyTrash.self])
}

/// What every trash command shares: the data folder, the family, JSON output.
struct TrashOptions: ParsableArguments {
    @OptionGroup var data: DataOptions
    @OptionGroup var family: FamilyOption
    @OptionGroup var output: OutputOptions

    func open() async throws -> (database: any DiaryEngine, family: FamilyID) {
        let database = try await data.openExisting()
        return (database, try await database.stores.accounts.family(named: family.family).id)
    }

    static func id(_ text: String) throws -> TrashID {
        guard let id = TrashID(text) else { throw ArgumentParser.ValidationError("'\(text)' is not a trash item id; see 'saessak trash list'") }
        return id
    }

    /// Deletes the photo files purged items left without a row.
    func release(_ released: [ReleasedPhotoFile], database: any DiaryEngine) async throws {
        guard !released.isEmpty else { return }
        let photos = try PhotoService(storage: try await data.photoStorage(), store: database.stores.photos, logger: Logger(label: "saessak"))
        await photos.release(released)
    }
}

struct ListTrash: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the trash, most recently deleted first.")

    @OptionGroup var options: TrashOptions

    func run() async throws {
        let (database, family) = try await options.open()
        let store = database.stores.trash
        let (items, days) = try await store.list(family: family)
        let now = database.clock.now()
        if options.output.json {
            print(try JSONShapes.text(ListResponse(items: items.map { TrashItemResource($0, keepingDays: days, now: now) }, next: nil)))
            return
        }
        for item in items {
            let left = item.daysLeft(keepingDays: days, now: now)
            print("\(item.id)  \(item.kind.rawValue)  \(StoredTimeText.minute(item.deletedAt))  \(left) days left  \(item.label)")
        }
    }
}

struct RestoreTrash: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "restore", abstract: "Put an item back as it was.")

    @OptionGroup var options: TrashOptions
    @Argument(help: "The trash item's id.") var id: String
    @Flag(help: "When what it belonged to (a photo's entry) is in the trash too, restore that first.") var withParent = false

    func validate() throws { _ = try TrashOptions.id(id) }

    func run() async throws {
        let (database, family) = try await options.open()
        let restored: [TrashRestore]
        do {
            restored = try await database.stores.trash.restore(family: family, id: try TrashOptions.id(id), withParent: withParent, as: .administrator)
        } catch StoreError.conflict(field: "parent", let message) {
            throw CLIError("\(message); add --with-parent")
        }
        if options.output.json {
            let days = try await database.stores.trash.retention(family: family)
            print(try JSONShapes.text(TrashRestoreResource(restored, keepingDays: days, now: database.clock.now())))
            return
        }
        for restore in restored {
            print("restored \(restore.item.kind.rawValue) \(restore.item.itemID)  \(restore.item.label)")
            for missing in restore.leftOut { print("  left out (gone for good): \(missing)") }
            if restore.item.shareLinks > 0 { print("  share links that showed it do not show it again: \(restore.item.shareLinks)") }
        }
    }
}

struct PurgeTrash: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "purge", abstract: "Delete one item in the trash for good.")

    @OptionGroup var options: TrashOptions
    @Argument(help: "The trash item's id.") var id: String

    func validate() throws { _ = try TrashOptions.id(id) }

    func run() async throws {
        let (database, family) = try await options.open()
        try await options.release(try await database.stores.trash.purge(family: family, id: try TrashOptions.id(id)), database: database)
    }
}

struct EmptyTrash: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "empty", abstract: "Delete everything in the family's trash for good.")

    @OptionGroup var options: TrashOptions

    func run() async throws {
        let (database, family) = try await options.open()
        try await options.release(try await database.stores.trash.empty(family: family), database: database)
    }
}
