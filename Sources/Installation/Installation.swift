import Foundation

/// What this copy of Saessak is and where its files are: the version (`saessak --version`, the settings page), the
/// commit a package was built from, and the resource folders (templates, assets, the OpenAPI document, place data)
/// wherever they were put — beside the program (a `swift build`), in `../share/saessak` (the Debian package's
/// `/usr/share/saessak` for `/usr/bin/saessak`), or where `SAESSAK_RESOURCES` says. docs/deploy.md, "The Debian
/// package".
public enum Installation {
    /// The release in the source. `make package` names the `.deb` by it (read from this line).
    public static let sourceVersion = "0.3.0"

    /// The version of the package this program came in (`build-info`), or the source's.
    public static let version: String = buildInfo["version"].flatMap { $0.isEmpty ? nil : String($0.prefix(40)) } ?? sourceVersion

    /// When this version was made (2026-11-26): a clock before it is wrong (`saessak doctor`).
    public static let released = Date(timeIntervalSince1970: 1795651200)

    /// The commit the package was built from (`build-info` in the share folder, written by `make package`); nil for a
    /// build from source, whose checkout says it.
    public static let commit: String? = buildInfo["commit"].flatMap { $0.count == 40 && $0.allSatisfy(\.isHexDigit) ? $0 : nil }

    /// `build-info`'s `key=value` lines (`version`, `commit`), from the share folder.
    static let buildInfo: [String: String] = shareFolders.lazy
        .compactMap { try? String(contentsOf: $0.appendingPathComponent("build-info"), encoding: .utf8) }.first.map(buildInfo(from:)) ?? [:]

    /// `key=value` lines; a line without `=` is skipped.
    static func buildInfo(from text: String) -> [String: String] {
        var found: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { found[String(parts[0])] = String(parts[1]) }
        }
        return found
    }

    /// `0.3.0 (commit 1a2b3c4d)`, or `0.3.0 (built from source)`.
    public static var description: String {
        "\(version) (\(commit.map { "commit \($0.prefix(12))" } ?? "built from source"))"
    }

    /// The resource folders Saessak cannot run without, by SwiftPM's bundle name.
    public static let requiredResources = ["saessak_WebApp", "saessak_Places"]

    /// The folder of resource bundle `name` (`saessak_WebApp`), or nil when it is nowhere Saessak looks.
    public static func resources(_ name: String) -> URL? {
        let folders = (ProcessInfo.processInfo.environment["SAESSAK_RESOURCES"].map { [URL(fileURLWithPath: $0)] } ?? []) + [executableFolder]
            + shareFolders
        var isFolder: ObjCBool = false
        return folders.map { $0.appendingPathComponent("\(name).resources") }
            .first { FileManager.default.fileExists(atPath: $0.path, isDirectory: &isFolder) && isFolder.boolValue }
    }

    /// What is missing, named with where it was looked for: nil when every resource folder is there. `serve` and
    /// `doctor` say it at start, so no request ever meets a missing template.
    public static func missingResources() -> String? {
        let missing = requiredResources.filter { resources($0) == nil }
        guard !missing.isEmpty else { return nil }
        let places = ([ProcessInfo.processInfo.environment["SAESSAK_RESOURCES"]].compactMap { $0 }
            + ([executableFolder] + shareFolders).map(\.path))
        return "the resource folders \(missing.map { "\($0).resources" }.joined(separator: ", ")) are missing: looked in "
            + places.joined(separator: ", ") + " (reinstall the package, or set SAESSAK_RESOURCES to the folder holding them)"
    }

    /// The folder of the running program (symbolic links followed: `/usr/bin`, `.build/debug`).
    static let executableFolder: URL = {
        let program = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")).map(URL.init(fileURLWithPath:))
            ?? Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments.first ?? ".")
        return program.deletingLastPathComponent()
    }()

    /// `../share/saessak` from the program: `/usr/share/saessak` for the package's `/usr/bin/saessak`, and never
    /// the package's files for a program built elsewhere on the same machine.
    static var shareFolders: [URL] { [executableFolder.deletingLastPathComponent().appendingPathComponent("share/saessak")] }
}
