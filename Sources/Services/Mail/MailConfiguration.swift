import Diary
import Foundation
import Mail
import MailFormat
import Secrets

/// How `saessak serve` sends mail: the SMTP server, who the mail is from, the address people reach the app at (mail
/// links must be whole URLs), and when digests go out. Without it, members can still choose mail; nothing is sent.
public struct MailConfiguration: Sendable {
    public var smtp: SMTPSettings
    public var from: MailAddress
    /// The name the mail comes from.
    public var senderName: String
    /// `https://diary.example.kr`, without a trailing slash.
    public var publicURL: String
    /// The hour (Seoul) from which each day's digest is sent; weekly digests go on Mondays.
    public var digestHour: Int
    /// How often the server looks for mail to write and send.
    public var interval: Duration
    /// A reminder goes this many days (or fewer, if the server was down) before each day it tells of.
    public var reminderDays: Int

    public init(
        smtp: SMTPSettings, from: MailAddress, senderName: String = "새싹", publicURL: String, digestHour: Int = 7,
        interval: Duration = .seconds(60), reminderDays: Int = 3
    ) {
        self.smtp = smtp
        self.from = from
        self.senderName = senderName
        self.publicURL = publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL
        self.digestHour = digestHour
        self.interval = interval
        self.reminderDays = reminderDays
    }
}

/// The unsubscribe link of one member of one family: `/mail/unsubscribe/<family>/<user>/<signature>`. The signature
/// (the server key's, for this purpose) is the credential: it works without a sign-in, for that member only, and
/// only turns mail off.
public enum UnsubscribeLink {
    static let purpose = "mail unsubscribe"

    public static func path(family: FamilyID, user: UserID, cipher: FieldCipher) -> String {
        let signature = cipher.signature(of: message(family: family, user: user), purpose: purpose)
        return "/mail/unsubscribe/\(family)/\(user)/\(base64URL(signature))"
    }

    /// Whether `token` is the signature for this member.
    public static func verifies(_ token: String, family: FamilyID, user: UserID, cipher: FieldCipher) -> Bool {
        guard let signature = data(base64URL: token) else { return false }
        return cipher.verifies(signature, of: message(family: family, user: user), purpose: purpose)
    }

    private static func message(family: FamilyID, user: UserID) -> String { "\(family)|\(user)" }

    private static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    private static func data(base64URL text: String) -> Data? {
        guard text.count <= 64, text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
