import ArgumentParser
import Diary
import Foundation
import Persistence
import Services

/// `saessak photos list --entry ID`: an entry's photos and video clips, in order.
struct PhotosList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List an entry's photos and video clips in their order.")

    @OptionGroup var data: DataOptions
    @OptionGroup var family: FamilyOption
    @OptionGroup var output: OutputOptions

    @Option(help: "The entry (an id from 'saessak entries list').")
    var entry: String

    func validate() throws {
        guard EntryID(entry) != nil else { throw ArgumentParser.ValidationError("--entry '\(entry)' is not an id; see 'saessak entries list'") }
    }

    func run() async throws {
        guard let entryID = EntryID(entry) else { return }
        let database = try await data.openExisting()
        let familyID = try await database.stores.accounts.family(named: family.family).id
        let photos: [Photo]
        do {
            photos = try await database.stores.photos.photos(family: familyID, entry: entryID)
        } catch StoreError.notFound {
            throw CLIError("no entry \(entry) in this family")
        }
        if output.json {
            print(try JSONShapes.text(ListResponse(items: photos.map { PhotoResource($0) }, next: nil)))
            return
        }
        for photo in photos { print(Self.line(photo)) }
    }

    /// `<id>  video/quicktime  1080×1920  ▶ 0:23  hevc, web version ready  2026-05-05 14:30`
    static func line(_ photo: Photo) -> String {
        var parts = [photo.id.description, photo.mimeType, "\(photo.width)×\(photo.height)"]
        if let video = photo.video {
            parts.append("▶ " + Duration.clock(Double(video.durationMilliseconds) / 1000))
            let web: String
            switch video.rendition {
            case .none: web = "plays as it is"
            case .pending: web = "web version \(video.renditionProgress ?? 0)% made"
            case .ready: web = "web version ready"
            case .failed: web = "web version failed"
            }
            parts.append("\(video.videoCodec), \(web)")
        }
        if let taken = photo.takenLocal { parts.append(String(taken.prefix(16)).replacingOccurrences(of: "T", with: " ")) }
        return parts.joined(separator: "  ")
    }
}
