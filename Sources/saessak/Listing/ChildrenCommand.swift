import ArgumentParser
import Diary
import Foundation
import Persistence
import Services

struct ChildrenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "children", abstract: "Children of a family.", subcommands: [ListChildren.self])
}

struct ListChildren: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the children, in the order they were added.")

    @OptionGroup var data: DataOptions
    @OptionGroup var family: FamilyOption
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let database = try await data.openExisting()
        let familyID = try await database.stores.accounts.family(named: family.family).id
        let store = database.stores.children
        let children = try await Page.all { try await store.list(family: familyID, after: $0, limit: $1) }
        let today = Today(clock: database.clock).date()
        if output.json {
            let resources = children.map { ChildResource($0, today: today) }
            print(try JSONShapes.text(ListResponse(items: resources, next: nil)))
            return
        }
        for child in children {
            let profile = child.profile
            let calendar = profile.birthDate.calendar == .lunar ? "음력" + (profile.birthDate.isLeapMonth ? " 윤달" : "") : "양력"
            var line = "\(child.id)  \(profile.name)  \(profile.birthDate.iso) (\(calendar))"
            if let age = ChildFacts(birthDate: profile.birthDate, today: today).age { line += "  D+\(age.days)" }
            print(line)
        }
    }
}
