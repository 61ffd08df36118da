import Foundation

/// Folders and files that hold a family's data outside the database (a backup being written, a restore's scratch, a
/// snapshot's stage, an upload waiting for its review): for the server's own user alone, 0700 and 0600 whatever the
/// umask, so another account on the machine (or a copy of the data folder without `secret.key`) reads nothing there.
public enum PrivateFiles {
    public static let folderMode: Int = 0o700
    public static let fileMode: Int = 0o600

    /// Makes `url` (and what leads to it) if need be, and makes it the user's alone, also when it was there before.
    public static func folder(_ url: URL) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: folderMode])
        try FileManager.default.setAttributes([.posixPermissions: folderMode], ofItemAtPath: url.path)
    }

    /// Makes the file at `url` the user's alone.
    public static func file(_ url: URL) throws {
        try FileManager.default.setAttributes([.posixPermissions: fileMode], ofItemAtPath: url.path)
    }
}
