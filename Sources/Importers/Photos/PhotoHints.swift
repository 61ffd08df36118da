import Foundation

/// What the files beside a photo say of it, for an import of photos: its Google Photos Takeout sidecar (taken time,
/// description, place), the albums it is in (a Takeout folder with an album's `metadata.json`), whether it is an edited
/// copy of another photo of its folder, and whether it is the clip of a Live Photo whose still is beside it.
struct PhotoHint: Sendable {
    var sidecar: TakeoutSidecar?
    var albums: [String] = []
    /// The label of the photo this file is an edited copy of (`IMG_0004-edited.JPG` of `IMG_0004.JPG`).
    var editedCopyOf: String?
    /// The index (in `PhotoFiles.files`) of the still whose clip this file is.
    var liveStill: Int?
}

enum PhotoHints {
    /// The clips of Live Photos and motion photos: a still and a clip of the same name in one folder.
    static let clipExtensions: Set<String> = ["mov", "mp4", "m4v", "mp", "qt"]

    /// One hint per file of `files`, in their order. Sidecars that cannot be read, are not one photo's, or match more
    /// than one photo are left alone (the photo is then dated by its EXIF or file, as any other).
    static func read(_ files: PhotoFiles) -> [PhotoHint] {
        var hints = Array(repeating: PhotoHint(), count: files.files.count)
        var byFolder: [String: [Int]] = [:]
        for (index, file) in files.files.enumerated() { byFolder[file.folder, default: []].append(index) }

        var albums: [String: String] = [:]
        for sidecar in files.sidecars where sidecar.name.lowercased() == "metadata.json" {
            if let title = files.data(of: sidecar, maxBytes: TakeoutSidecar.maxBytes).flatMap(TakeoutSidecar.read)?.title,
                !isYearFolder(title)
            {
                albums[sidecar.folder] = title
            }
        }
        for sidecar in files.sidecars where sidecar.name.lowercased() != "metadata.json" {
            guard let (stem, copy) = TakeoutNames.described(bySidecar: sidecar.name) else { continue }
            let candidates = (byFolder[sidecar.folder] ?? []).filter {
                TakeoutNames.matches(stem: stem, copy: copy, sidecar: sidecar.name, photo: files.files[$0].name)
            }
            // The photo of exactly that name, else the one photo whose name was cut short to it (not counting edited
            // copies and clips, which take their original's or their still's).
            let exact = candidates.filter { TakeoutNames.copyNumber(files.files[$0].name).name == stem }
            let originals = candidates.filter { !isClip(files.files[$0].name) && TakeoutNames.original(ofEdited: files.files[$0].name) == nil }
            let chosen = exact.count == 1 ? exact.first : originals.count == 1 ? originals.first : candidates.count == 1 ? candidates.first : nil
            guard let photo = chosen,
                hints[photo].sidecar == nil,
                let read = files.data(of: sidecar, maxBytes: TakeoutSidecar.maxBytes).flatMap(TakeoutSidecar.read)
            else { continue }
            hints[photo].sidecar = read
        }

        for (folder, indices) in byFolder {
            let byName = Dictionary(indices.map { (files.files[$0].name, $0) }, uniquingKeysWith: { first, _ in first })
            var stills: [String: Int] = [:]
            for index in indices where !isClip(files.files[index].name) {
                stills[TakeoutNames.liveKey(files.files[index].name)] = stills[TakeoutNames.liveKey(files.files[index].name)] ?? index
            }
            for index in indices {
                let name = files.files[index].name
                if let album = albums[folder] { hints[index].albums = [album] }
                if let original = TakeoutNames.original(ofEdited: name).flatMap({ byName[$0] }) {
                    hints[index].editedCopyOf = files.files[original].label
                    if hints[index].sidecar == nil { hints[index].sidecar = hints[original].sidecar }
                }
                if isClip(name), let still = stills[TakeoutNames.liveKey(name)] {
                    hints[index].liveStill = still
                    if hints[index].sidecar == nil { hints[index].sidecar = hints[still].sidecar }
                }
            }
        }
        return hints
    }

    static func isClip(_ name: String) -> Bool { clipExtensions.contains((name as NSString).pathExtension.lowercased()) }

    /// Takeout's folders of a year (`Photos from 2019`) are no albums.
    static func isYearFolder(_ title: String) -> Bool {
        let words = title.split(separator: " ")
        return words.count == 3 && words[0] == "Photos" && words[1] == "from" && words[2].count == 4
            && words[2].utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}
