import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A secret handed to Saessak by its environment: `NAME` itself, or the first line of the file `NAME_FILE` names
/// (what systemd's credentials and the package's protected files hand over), never a command-line argument, which
/// every user's process list shows.
public enum SecretVariable {
    /// Every secret Saessak reads this way.
    public static let names = [
        "SAESSAK_SMTP_PASSWORD", "SAESSAK_DATABASE_PASSWORD", "SAESSAK_SNAPSHOT_PASSWORD", "SAESSAK_S3_ACCESS_KEY_ID",
        "SAESSAK_S3_SECRET_ACCESS_KEY", "SAESSAK_SNAPSHOT_S3_ACCESS_KEY_ID", "SAESSAK_SNAPSHOT_S3_SECRET_ACCESS_KEY",
    ]

    public struct Unreadable: Error, CustomStringConvertible {
        public let description: String
    }

    /// The value of `name`, or of the file `name_FILE` names; nil when neither is set.
    public static func value(_ name: String, in environment: [String: String]) throws(Unreadable) -> String? {
        if let value = environment[name], !value.isEmpty { return value }
        guard let path = environment[name + "_FILE"], !path.isEmpty else { return nil }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw Unreadable(description: "cannot read \(name)_FILE (\(path))")
        }
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        guard !line.isEmpty else { throw Unreadable(description: "\(name)_FILE (\(path)) is empty") }
        return line
    }

    /// Why the file at `path` is no place for a secret (its group or everyone may read it), or nil.
    public static func exposure(ofFile path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return "\(path) cannot be read" }
        let mode = status.st_mode & 0o777
        guard mode & 0o077 == 0 else { return "\(path) is mode \(String(mode, radix: 8)): others may read the secret in it" }
        return nil
    }
}
