import ArgumentParser
import Diary
import Foundation
import Persistence
import Services

struct MemosCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "memos", abstract: "A family's memos.", subcommands: [ListMemos.self, AddMemo.self, EditMemo.self, RemoveMemo.self])
}

/// What every memo command shares: the data folder, the family, JSON output.
struct MemoOptions: ParsableArguments {
    @OptionGroup var data: DataOptions
    @OptionGroup var family: FamilyOption
    @OptionGroup var output: OutputOptions

    func open() async throws -> (any MemoStore, FamilyID) {
        let database = try await data.openExisting()
        return (database.stores.memos, try await database.stores.accounts.family(named: family.family).id)
    }

    func show(_ memo: Memo) throws {
        if output.json {
            print(try JSONShapes.text(MemoResource(memo)))
        } else {
            print("\(memo.id)  \(memo.content.title)")
        }
    }

    static func id(_ text: String) throws -> MemoID {
        guard let id = MemoID(text) else { throw ArgumentParser.ValidationError("'\(text)' is not a memo id; see 'saessak memos list'") }
        return id
    }
}

struct ListMemos: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List memos, most recently changed first.")

    @OptionGroup var options: MemoOptions

    func run() async throws {
        let (store, family) = try await options.open()
        let memos = try await Page.all { try await store.list(family: family, after: $0, limit: $1) }
        if options.output.json {
            print(try JSONShapes.text(ListResponse(items: memos.map(MemoResource.init), next: nil)))
        } else {
            for memo in memos { print("\(memo.id)  \(memo.content.title)") }
        }
    }
}

struct AddMemo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Write a new memo; prints it.")

    @OptionGroup var options: MemoOptions
    @Option(help: "The title.") var title: String
    @Option(help: "The body ('-' reads it from standard input).") var body: String = ""

    func run() async throws {
        let (store, family) = try await options.open()
        let text = body == "-" ? String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self) : body
        try options.show(try await store.create(family: family, content: try MemoContent(title: title, body: text)))
    }
}

struct EditMemo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "edit", abstract: "Change a memo's title or body; prints it.")

    @OptionGroup var options: MemoOptions
    @Argument(help: "The memo's id.") var id: String
    @Option(help: "A new title.") var title: String?
    @Option(help: "A new body ('-' reads it from standard input).") var body: String?

    func validate() throws {
        _ = try MemoOptions.id(id)
        guard title != nil || body != nil else { throw ArgumentParser.ValidationError("give --title, --body or both") }
    }

    func run() async throws {
        let (store, family) = try await options.open()
        let memoID = try MemoOptions.id(id)
        let current = try await store.get(family: family, id: memoID)
        let text = body == "-" ? String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self) : body
        let content = try MemoContent(title: title ?? current.content.title, body: text ?? current.content.body)
        try options.show(try await store.update(family: family, id: memoID, content: content))
    }
}

struct RemoveMemo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Move a memo to the trash ('saessak trash' puts it back).")

    @OptionGroup var options: MemoOptions
    @Argument(help: "The memo's id.") var id: String

    func validate() throws { _ = try MemoOptions.id(id) }

    func run() async throws {
        let (store, family) = try await options.open()
        let item = try await store.delete(family: family, id: try MemoOptions.id(id), by: nil)
        print("moved to the trash: \(item.id)")
    }
}
