import ArgumentParser
import Files
import Foundation
import Mail
import MailFormat
import Services

/// How mail is sent: `saessak serve` and `saessak mail run`. The SMTP user name and password come from the
/// environment (`SAESSAK_SMTP_USERNAME`, `SAESSAK_SMTP_PASSWORD`), never the command line (a process list shows it).
struct MailOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The SMTP server that sends the mail (no mail without it).", valueName: "HOST"))
    var smtpHost: String?

    @Option(help: "The SMTP server's port (587 for STARTTLS, 465 for TLS).")
    var smtpPort = 587

    @Option(help: ArgumentHelp("starttls (required, the default), tls (from the first byte) or none (a relay on this machine).", valueName: "MODE"))
    var smtpSecurity = "starttls"

    @Option(help: ArgumentHelp("A PEM file of certificates to trust besides the system's (a home server's own CA).", valueName: "FILE"))
    var smtpCaFile: String?

    @Option(help: ArgumentHelp("The address the mail comes from.", valueName: "ADDRESS"))
    var mailFrom: String?

    @Option(help: ArgumentHelp(
        "The address people open the app at (https://diary.example.kr): the links in mail, and the site passkeys belong to.",
        valueName: "URL"))
    var publicUrl: String?

    @Option(help: ArgumentHelp("The hour (Seoul time, 0–23) from which the day's digests go out.", valueName: "HOUR"))
    var digestHour = 7

    @Option(help: ArgumentHelp("Seconds between looks for mail to write and send.", valueName: "SECONDS"))
    var mailInterval = 60

    func validate() throws {
        _ = try publicURL()
        guard smtpHost != nil else { return }
        _ = try configuration()
    }

    /// `--public-url`, checked: an http(s) address with a host and nothing after the path; nil when not given.
    func publicURL() throws -> URL? {
        guard let publicUrl else { return nil }
        guard let url = URL(string: publicUrl), ["http", "https"].contains(url.scheme ?? ""), url.host != nil, url.query == nil,
            url.fragment == nil, url.user == nil
        else { throw Self.badPublicURL(publicUrl) }
        return url
    }

    private static func badPublicURL(_ given: String?) -> ValidationError {
        ValidationError("--public-url must be the app's address, such as https://diary.example.kr (got '\(given ?? "")')")
    }

    /// The settings, or nil without `--smtp-host`.
    func configuration(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> MailConfiguration? {
        guard let smtpHost else { return nil }
        guard !smtpHost.isEmpty else { throw ValidationError("--smtp-host must not be empty") }
        guard (1...65535).contains(smtpPort) else { throw ValidationError("--smtp-port must be 1–65535 (got \(smtpPort))") }
        guard let security = SMTPSettings.Security(rawValue: smtpSecurity) else {
            throw ValidationError("--smtp-security must be starttls, tls or none (got '\(smtpSecurity)')")
        }
        guard let mailFrom else { throw ValidationError("--mail-from is needed with --smtp-host") }
        let from: MailAddress
        do { from = try MailAddress(mailFrom) } catch { throw ValidationError("--mail-from '\(mailFrom)' \(error)") }
        guard let url = try publicURL(), let publicUrl else { throw Self.badPublicURL(publicUrl) }
        guard (0...23).contains(digestHour) else { throw ValidationError("--digest-hour must be 0–23 (got \(digestHour))") }
        guard (1...3600).contains(mailInterval) else { throw ValidationError("--mail-interval must be 1–3600 seconds (got \(mailInterval))") }
        if let smtpCaFile, !FileManager.default.isReadableFile(atPath: smtpCaFile) {
            throw ValidationError("--smtp-ca-file '\(smtpCaFile)' cannot be read")
        }
        let username = environment["SAESSAK_SMTP_USERNAME"].flatMap { $0.isEmpty ? nil : $0 }
        let password: String?
        do { password = try SecretVariable.value("SAESSAK_SMTP_PASSWORD", in: environment) } catch { throw ValidationError(error.description) }
        guard (username == nil) == (password == nil) else {
            throw ValidationError("set both SAESSAK_SMTP_USERNAME and SAESSAK_SMTP_PASSWORD (or SAESSAK_SMTP_PASSWORD_FILE), or neither")
        }
        if username != nil, security == .none, !["127.0.0.1", "::1", "localhost"].contains(smtpHost) {
            throw ValidationError("--smtp-security none would send the SMTP password in the clear: use starttls or tls")
        }
        return MailConfiguration(
            smtp: SMTPSettings(
                host: smtpHost, port: smtpPort, security: security, username: username, password: password,
                trustedCertificates: smtpCaFile, heloName: url.host ?? "saessak.localhost"),
            from: from, publicURL: publicUrl, digestHour: digestHour, interval: .seconds(mailInterval))
    }
}
