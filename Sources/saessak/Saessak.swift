import ArgumentParser
import Foundation
import Importers
import Installation
import Logging
import PostgresStore
import Services

@main
struct Saessak: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "saessak",
        abstract: "새싹 Saessak: a family photo diary with the Korean calendar built in.",
        version: "saessak \(Installation.description)",
        subcommands: [
            Serve.self, Admin.self, ChildrenCommand.self, EntriesCommand.self, MemosCommand.self, LunarCommand.self, SolarCommand.self,
            TermsCommand.self, HolidaysCommand.self, CalendarCommand.self, CalcCommand.self, VaccinesCommand.self,
            BackupCommand.self, RestoreCommand.self, SnapshotsCommand.self, ImportCommand.self, PhotosCommand.self, CommentsCommand.self, TrashCommand.self, MailCommand.self,
            PlaceCommand.self, DoctorCommand.self, BookCommand.self,
            ReadUntrustedCommand.self,
        ])

    static func main() async {
        // Every line as the program wrote it: what came from outside cannot start a line or colour a terminal.
        LoggingSystem.bootstrap { label in EscapingLogHandler(StreamLogHandler.standardError(label: label)) }
        // An uploaded SQLite store is read by this program in a child process, never by the server itself. Named
        // through /proc so that the child is this very binary even after a package upgrade replaced the file.
        UntrustedStore.readInChildProcesses(program: "/proc/\(getpid())/exe")
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: PostgresDatabase.operatorMessage(error).map(CLIError.init) ?? error)
        }
    }
}
