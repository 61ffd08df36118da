import ArgumentParser
import Diary
import DiaryStore
import Files
import Foundation
import Installation
import Mail
import Persistence
import Photos
import Secrets
import Services
import Snapshots

#if canImport(Glibc)
import Glibc
#endif

/// `saessak doctor`: whether this machine can run the server with these options, one line per check, each failure
/// with its fix (docs/deploy.md, "Doctor"). It takes every option `serve` takes, so that the Debian package's
/// post-install and its owner check what the service really runs with. Run it as the user the server runs as: it opens
/// the database, and files it made as another user would lock the server out.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check what a running server needs, one line per check with the fix; exits 1 when something is wrong.",
        discussion: """
            With the Debian package, as its service runs:
              sudo -u saessak sh -c 'set -a; . /etc/default/saessak; set +a; saessak doctor --data /var/lib/saessak $SAESSAK_OPTIONS'
            """)

    @OptionGroup var data: DataOptions
    @OptionGroup var mail: MailOptions
    @OptionGroup var snapshots: SnapshotOptions
    @OptionGroup var server: ServerOptions

    func run() async throws {
        var checks: [DoctorCheck] = [resources(), imageLibrary(), video(), dataFolder(), freeDisk(), clock()]
        let ownFolder = checks.first { $0.name == "data folder" }?.passed ?? false
        checks.append(secretKey(ownFolder: ownFolder))
        checks.append(await database(ownFolder: ownFolder))
        if let growth = await growth(ownFolder: ownFolder) { checks.append(growth) }
        checks.append(await photoStore(ownFolder: ownFolder))
        checks.append(await mailServer())
        checks.append(publicAddress())
        if let snapshot = snapshotTool() { checks.append(snapshot) }
        checks.append(secretFiles())
        for check in checks { print(check.line) }
        if checks.contains(where: { !$0.passed }) { throw ExitCode(1) }
    }

    private func resources() -> DoctorCheck {
        if let missing = Installation.missingResources() { return .fail("resources", missing, fix: "reinstall the package") }
        return .ok("resources", "templates, assets and place data found · saessak \(Installation.description)")
    }

    private func imageLibrary() -> DoctorCheck {
        do {
            let library = try PhotoFolder.imageLibrary()
            guard library.missing.isEmpty else {
                return .fail(
                    "images", "libvips \(library.version) lacks \(library.missing.joined(separator: ", "))",
                    fix: "apt install libvips42 libheif1 (Debian's libvips reads HEIC through libheif)")
            }
            return .ok("images", "libvips \(library.version): JPEG, PNG, WebP and HEIC")
        } catch {
            return .fail("images", "libvips does not start: \(error)", fix: "apt install libvips42")
        }
    }

    private func video() -> DoctorCheck {
        guard let ffmpeg = ToolRun.Tool.ffmpeg.path, ToolRun.Tool.ffprobe.isInstalled else {
            return .fail("video", "ffmpeg and ffprobe are not both installed: clips are refused", fix: "apt install ffmpeg")
        }
        let needed = ["encoders": ["libx264", "aac", "mjpeg"], "decoders": ["h264", "hevc", "vp9", "aac"]]
        var missing: [String] = []
        for (list, names) in needed.sorted(by: { $0.key > $1.key }) {
            guard let outcome = try? ToolRun.run(program: ffmpeg, ["-hide_banner", "-\(list)"], memory: 1 << 30, timeout: 30),
                outcome.succeeded
            else { return .fail("video", "\(ffmpeg) -\(list) did not run", fix: "apt install --reinstall ffmpeg") }
            let words = Set(String(decoding: outcome.output, as: UTF8.self).split(whereSeparator: \.isWhitespace).map(String.init))
            missing += names.filter { !words.contains($0) }.map { "\($0) (\(list.dropLast()))" }
        }
        guard missing.isEmpty else {
            return .fail("video", "this ffmpeg lacks \(missing.joined(separator: ", "))", fix: "install Debian's own ffmpeg package")
        }
        return .ok("video", "ffmpeg with H.264, HEVC, VP9 and AAC")
    }

    private func dataFolder() -> DoctorCheck {
        let path = data.url.path
        var status = stat()
        guard stat(path, &status) == 0 else {
            return .fail("data folder", "\(path) does not exist", fix: "create it: install -d -m 0700 -o saessak -g saessak \(path)")
        }
        guard status.st_mode & S_IFMT == S_IFDIR else { return .fail("data folder", "\(path) is not a folder", fix: "name a folder with --data") }
        guard status.st_uid == geteuid() else {
            return .fail(
                "data folder", "\(path) belongs to user \(status.st_uid), this command runs as \(geteuid())",
                fix: "run as its owner: sudo -u \(Self.userName(status.st_uid)) saessak doctor --data \(path) …")
        }
        guard status.st_mode & 0o077 == 0 else {
            return .fail(
                "data folder", "\(path) can be read by others (mode \(String(status.st_mode & 0o777, radix: 8))): it holds children's photos",
                fix: "chmod 700 \(path)")
        }
        return .ok("data folder", "\(path), mode 700, owned by \(Self.userName(status.st_uid))")
    }

    private func freeDisk() -> DoctorCheck {
        guard let space = DiskSpace.at(data.url) else {
            return .fail("disk", "cannot tell the free space at \(data.url.path)", fix: "check the disk is mounted")
        }
        let text = "\(Self.size(space.available)) free of \(Self.size(space.total)) (\(space.percentUsed) % used)"
        if space.available < 1 << 30 {
            return .fail("disk", text + ": uploads and snapshots will fail", fix: "free space or move --data to a larger disk")
        }
        return .ok("disk", text)
    }

    /// Free space against what the diary grew by in the last 30 days: how long until the disk is full at that pace.
    private func growth(ownFolder: Bool) async -> DoctorCheck? {
        guard hasDatabase, ownFolder || (try? data.postgres()) != nil, let space = DiskSpace.at(data.url) else { return nil }
        guard let use = try? await data.openExisting().stores.photos.storageUse(family: nil, now: Date()) else { return nil }
        let stored = "photos \(Self.size(use.photoBytes)), clips \(Self.size(use.clipBytes)), books \(Self.size(use.bookBytes))"
        guard use.addedLastMonth > 0 else { return .ok("growth", "\(stored); nothing added in the last 30 days") }
        let months = Double(space.available) / Double(use.addedLastMonth)
        let text = "\(stored); \(Self.size(use.addedLastMonth)) added in the last 30 days: the free space lasts about "
            + (months >= 24 ? "\(Int(months / 12)) years" : "\(Int(months.rounded(.down))) months") + " at that pace"
        if months < 3 { return .fail("growth", text, fix: "free space or move --data to a larger disk before it fills") }
        return .ok("growth", text)
    }

    private static func size(_ bytes: Int64) -> String { ByteCountFormatter.string(fromByteCount: bytes, countStyle: .file) }

    /// Every secret handed over in a file (`…_FILE`) is the user's alone, and the package's options file, when it holds
    /// a secret itself, is not for everyone (issue 66: a 0644 passphrase file passed).
    private func secretFiles(environment: [String: String] = ProcessInfo.processInfo.environment, options: String = "/etc/default/saessak")
        -> DoctorCheck
    {
        var files: [String] = []
        for name in SecretVariable.names {
            guard let path = environment[name + "_FILE"], !path.isEmpty else { continue }
            if let exposure = SecretVariable.exposure(ofFile: path) {
                return .fail("secrets", "\(name)_FILE: \(exposure)", fix: "chmod 600 \(path) (owned by the user the server runs as)")
            }
            files.append(name + "_FILE")
        }
        var status = stat()
        if stat(options, &status) == 0, status.st_mode & 0o004 != 0,
            let text = try? String(contentsOfFile: options, encoding: .utf8),
            text.split(whereSeparator: \.isNewline).contains(where: { line in
                SecretVariable.names.contains { line.hasPrefix($0 + "=") && line.count > $0.count + 1 && !line.hasPrefix($0 + "=\"\"") }
            })
        {
            return .fail(
                "secrets", "\(options) holds a secret and everyone may read it (mode \(String(status.st_mode & 0o777, radix: 8)))",
                fix: "chown root:saessak \(options) && chmod 640 \(options), or move the secret to a …_FILE")
        }
        return .ok("secrets", files.isEmpty ? "none handed over in files" : "\(files.joined(separator: ", ")): the user's alone")
    }

    private func clock() -> DoctorCheck {
        let now = Date()
        guard now >= Installation.released else {
            return .fail(
                "clock", "the clock says \(ISO8601DateFormatter().string(from: now)), before this release was made",
                fix: "set the time (timedatectl set-ntp true): dates, sessions and TLS depend on it")
        }
        return .ok("clock", ISO8601DateFormatter().string(from: now) + " (UTC); the diary's days are Korean days")
    }

    private func secretKey(ownFolder: Bool) -> DoctorCheck {
        if ProcessInfo.processInfo.environment["SAESSAK_SECRET_KEY"] != nil {
            return (try? FieldCipher.forDataFolder(data.url)) == nil
                ? .fail("secret key", "SAESSAK_SECRET_KEY is not 32 bytes in base64", fix: "give the key the server was first started with")
                : .ok("secret key", "from SAESSAK_SECRET_KEY")
        }
        let file = data.url.appendingPathComponent(FieldCipher.keyFileName)
        var status = stat()
        guard stat(file.path, &status) == 0 else {
            if hasDatabase {
                return .fail(
                    "secret key", "\(file.path) is missing but the database exists: resident numbers cannot be read",
                    fix: "put back secret.key from the backup you keep of it")
            }
            return .ok("secret key", "made at the first start")
        }
        guard status.st_mode & 0o077 == 0 else {
            return .fail("secret key", "\(file.path) can be read by others", fix: "chmod 600 \(file.path)")
        }
        guard ownFolder else { return .fail("secret key", "not read until the data folder line is mended", fix: "see the data folder line") }
        guard (try? FieldCipher.forDataFolder(data.url)) != nil else {
            return .fail("secret key", "\(file.path) is not a Saessak key", fix: "put back secret.key from the backup you keep of it")
        }
        return .ok("secret key", "\(file.path), mode 600")
    }

    private var hasDatabase: Bool {
        (try? data.postgres()) != nil || FileManager.default.fileExists(atPath: data.url.appendingPathComponent(DiaryDatabase.fileName).path)
    }

    private func database(ownFolder: Bool) async -> DoctorCheck {
        guard hasDatabase else { return .ok("database", "made at the first start") }
        // Opened by another user, SQLite would leave files the server cannot write.
        guard ownFolder || (try? data.postgres()) != nil else {
            return .fail("database", "not opened until the data folder line is mended", fix: "see the data folder line")
        }
        do {
            let engine = try await data.openExisting()
            let integrity = try await engine.integrityCheck()
            guard integrity == "ok" else {
                return .fail("database", "\(engine.location): \(integrity.prefix(200))", fix: "restore the last good snapshot or backup")
            }
            let schema = try await engine.schemaVersion().last ?? "?"
            return .ok("database", "\(engine.location), schema \(schema) (current), integrity ok")
        } catch {
            return .fail("database", "\(error)".prefix(300).description, fix: "see docs/deploy.md, \"Doctor\"")
        }
    }

    private func photoStore(ownFolder: Bool) async -> DoctorCheck {
        do {
            if try data.objectStorage() != nil {
                let storage = try await data.photoStorage()  // opening checks the bucket, the keys and a write
                return .ok("photos", storage.location)
            }
        } catch {
            return .fail("photos", "\(error)".prefix(300).description, fix: "check the bucket, its endpoint and SAESSAK_S3_* keys")
        }
        guard ownFolder else { return .fail("photos", "not tried until the data folder line is mended", fix: "see the data folder line") }
        let folder = data.url.appendingPathComponent("photos")
        guard FileManager.default.fileExists(atPath: folder.path) else { return .ok("photos", "\(folder.path) is made at the first start") }
        let probe = folder.appendingPathComponent(".doctor-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: probe.path, contents: Data("ok".utf8)) else {
            return .fail("photos", "\(folder.path) cannot be written", fix: "chown -R the data folder to the user the server runs as")
        }
        try? FileManager.default.removeItem(at: probe)
        return .ok("photos", "\(folder.path), writable")
    }

    private func mailServer() async -> DoctorCheck {
        let configuration: MailConfiguration?
        do { configuration = try mail.configuration() } catch { return .fail("mail", "\(error)", fix: "see saessak serve --help") }
        guard let configuration else { return .ok("mail", "not set up (no --smtp-host): no digests, reminders or failure mail") }
        do {
            let client = try SMTPClient(settings: configuration.smtp)
            if let problem = await client.hello() {
                return .fail("mail", "\(configuration.smtp.host):\(configuration.smtp.port): \(problem)", fix: "check --smtp-host, --smtp-port and --smtp-security")
            }
        } catch {
            return .fail("mail", "\(error)", fix: "check --smtp-ca-file")
        }
        return .ok("mail", "\(configuration.smtp.host):\(configuration.smtp.port) answers EHLO")
    }

    private func publicAddress() -> DoctorCheck {
        guard let text = mail.publicUrl else {
            return .ok("public URL", "not set: links in mail need --public-url; pages use the address the browser used")
        }
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme ?? ""), let host = url.host else {
            return .fail("public URL", "'\(text.prefix(100))' is not an address", fix: "--public-url https://diary.example.kr")
        }
        if url.scheme == "http", !["localhost", "127.0.0.1", "::1"].contains(host) {
            return .fail("public URL", "\(text) is plain HTTP: passwords would cross the network readable", fix: "put Caddy in front (docs/deploy.md, \"HTTPS\")")
        }
        return .ok("public URL", text)
    }

    private func snapshotTool() -> DoctorCheck? {
        let settings: SnapshotSettings?
        do { settings = try snapshots.settings() } catch { return .fail("snapshots", "\(error)", fix: "see docs/backup.md, \"Snapshots\"") }
        guard let settings else { return nil }
        let restic = ProcessInfo.processInfo.environment["SAESSAK_RESTIC"] ?? "/usr/bin/restic"
        guard FileManager.default.isExecutableFile(atPath: restic) else {
            return .fail("snapshots", "to \(settings.description), but restic is not installed", fix: "apt install restic")
        }
        return .ok("snapshots", "to \(settings.description) with \(restic)")
    }

    static func userName(_ uid: uid_t) -> String {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return "\(uid)" }
        return String(cString: name)
    }
}

/// One line of `saessak doctor`.
struct DoctorCheck {
    let name: String
    let passed: Bool
    let detail: String
    let fix: String?

    static func ok(_ name: String, _ detail: String) -> DoctorCheck { DoctorCheck(name: name, passed: true, detail: detail, fix: nil) }
    static func fail(_ name: String, _ detail: String, fix: String) -> DoctorCheck {
        DoctorCheck(name: name, passed: false, detail: detail, fix: fix)
    }

    /// `ok    images       libvips 8.14.1: …` or `FAIL  video        … — fix: apt install ffmpeg`.
    var line: String {
        let label = name.padding(toLength: 12, withPad: " ", startingAt: 0)
        return (passed ? "ok    " : "FAIL  ") + label + " " + detail + (fix.map { " — fix: \($0)" } ?? "")
    }
}
