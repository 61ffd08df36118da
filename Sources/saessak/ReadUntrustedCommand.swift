import ArgumentParser
import Foundation
import Importers

/// `saessak read-untrusted iphotodiary SOURCE COPY`: what the server runs in a child process, under a memory and time
/// limit, to read a file someone uploaded (Sources/Importers/IPhotoDiary/UntrustedStore.swift). Not for people.
struct ReadUntrustedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read-untrusted",
        abstract: "Copy what an import reads from an uploaded file into a plain one (run by the server, in a process of its own).",
        shouldDisplay: false)

    enum Kind: String, ExpressibleByArgument { case iphotodiary }

    @Argument(help: "What the file is meant to be.")
    var kind: Kind

    @Option(help: "What messages call the file.")
    var name: String

    @Argument(help: "The uploaded file.")
    var source: String

    @Argument(help: "Where the copy goes (replaced).")
    var copy: String

    func run() throws {
        do {
            try UntrustedStore.copyInChild(URL(fileURLWithPath: source), to: URL(fileURLWithPath: copy), name: name)
        } catch {
            FileHandle.standardError.write(Data("\n\(error.line)\n".utf8))
            throw ExitCode(UntrustedStore.refusedStatus)
        }
    }
}
