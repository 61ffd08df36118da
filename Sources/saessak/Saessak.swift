import ArgumentParser
import Logging

@main
struct Saessak: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "saessak",
        abstract: "새싹 Saessak: a family photo diary with the Korean calendar built in.",
        subcommands: [
            Serve.self, Admin.self, ChildrenCommand.self, EntriesCommand.self, MemosCommand.self, LunarCommand.self, SolarCommand.self,
            TermsCommand.self, HolidaysCommand.self, CalendarCommand.self, CalcCommand.self, VaccinesCommand.self,
            BackupCommand.self, RestoreCommand.self, ImportCommand.self, PhotosCommand.self, CommentsCommand.self, MailCommand.self, PlaceCommand.self,
        ])

    static func main() async {
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
