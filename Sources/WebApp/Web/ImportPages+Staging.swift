import Diary
import Foundation
import Hummingbird
import Importers
import KoreanCalendar
import Multipart
import Persistence
import Photos
import Services

/// Uploads waiting in `<data>/.imports/<token>/` for their review or their job: where each is, reading it back, and
/// sweeping those no longer wanted.
extension ImportPages {

    struct Staged {
        let folder: URL
        let family: FamilyID
        let kind: Kind
        let fileName: String
        let encoding: TextImport.Encoding
        let children: [ChildID]
        var hasPlist: Bool

        /// The text importer dates a file without headings by its name, so the name is kept.
        var file: URL { folder.appendingPathComponent("file", isDirectory: true).appendingPathComponent(fileName) }
        var plist: URL { folder.appendingPathComponent("AnnData.plist") }
        /// The text files of an uploaded ZIP.
        var texts: URL { folder.appendingPathComponent("texts", isDirectory: true) }

        struct Saved: Codable {
            let family: String
            let kind: String
            let fileName: String
            let encoding: String
            let children: [String]
            let hasPlist: Bool
        }

        var saved: Saved {
            Saved(
                family: family.description, kind: kind.rawValue, fileName: fileName, encoding: encoding.rawValue,
                children: children.map(\.description), hasPlist: hasPlist)
        }
    }

    /// A staged upload of this family; anything else is not found (a token of another family included).
    func staged(_ token: String, family: FamilyID) throws -> Staged {
        let notFound = Problem(status: .notFound, detail: "no such import waiting: upload the file again")
        guard token.count == 32, token.allSatisfy(\.isHexDigit) else { throw notFound }
        let folder = stagingRoot.appendingPathComponent(token, isDirectory: true)
        guard let data = try? Data(contentsOf: folder.appendingPathComponent("import.json")),
            let saved = try? JSONDecoder().decode(Staged.Saved.self, from: data), saved.family == family.description,
            let kind = Kind(rawValue: saved.kind)
        else { throw notFound }
        return Staged(
            folder: folder, family: family, kind: kind, fileName: saved.fileName,
            encoding: TextImport.Encoding(rawValue: saved.encoding) ?? .auto, children: saved.children.compactMap(ChildID.init),
            hasPlist: saved.hasPlist)
    }

    /// Every staged upload of every family (a server starting resumes their jobs).
    func allStaged() -> [Staged] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: stagingRoot.path)) ?? []
        return names.compactMap { name in
            let folder = stagingRoot.appendingPathComponent(name, isDirectory: true)
            guard let data = try? Data(contentsOf: folder.appendingPathComponent("import.json")),
                let saved = try? JSONDecoder().decode(Staged.Saved.self, from: data), let family = FamilyID(saved.family)
            else { return nil }
            return try? staged(name, family: family)
        }
    }

    /// Deletes uploads left waiting longer than an hour, and finished imports an hour after they finished; as the
    /// server starts (`everythingIdle`), every upload no job is importing, whatever its age: an upload waiting for
    /// its review holds a family's diary (an iPhotoDiary store its resident numbers), and is not kept past the
    /// server that staged it (issue 66).
    func sweep(everythingIdle: Bool = false) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: stagingRoot.path)) ?? []
        for name in names {
            let folder = stagingRoot.appendingPathComponent(name)
            if let job = ImportJobs.read(folder), job.state == .queued || job.state == .running { continue }
            let modified = (try? FileManager.default.attributesOfItem(atPath: folder.path)[.modificationDate] as? Date) ?? .distantPast
            if everythingIdle || stores.today.clock.now().timeIntervalSince(modified) > Self.lifetime {
                try? FileManager.default.removeItem(at: folder)
            }
        }
    }
}
