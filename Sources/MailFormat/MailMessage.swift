import Foundation

/// A message to one person, written out as RFC 5322 / MIME bytes: a plain-text and an HTML version of the same words
/// (`multipart/alternative`), and the pictures the HTML shows inline by `cid:` (`multipart/related`). Everything past
/// the headers is base64, so any UTF-8 text travels through any server; headers with other than ASCII in them are
/// RFC 2047 encoded words.
public struct MailMessage: Sendable {
    public struct Person: Sendable {
        public let name: String
        public let address: MailAddress

        public init(name: String, address: MailAddress) {
            self.name = name
            self.address = address
        }
    }

    /// A picture the HTML names as `cid:<contentID>`.
    public struct InlineImage: Sendable {
        public let contentID: String
        public let mediaType: String
        public let filename: String
        public let bytes: Data

        public init(contentID: String, mediaType: String, filename: String, bytes: Data) {
            self.contentID = contentID
            self.mediaType = mediaType
            self.filename = filename
            self.bytes = bytes
        }
    }

    public var from: Person
    public var to: Person
    public var subject: String
    public var date: Date
    /// Without the angle brackets: `0a1b…@saessak.example`.
    public var messageID: String
    public var text: String
    public var html: String
    public var images: [InlineImage]
    /// More headers (List-Unsubscribe, Auto-Submitted), ASCII only; anything else is dropped rather than written.
    public var extraHeaders: [(name: String, value: String)]

    public init(
        from: Person, to: Person, subject: String, date: Date, messageID: String, text: String, html: String,
        images: [InlineImage] = [], extraHeaders: [(name: String, value: String)] = []
    ) {
        self.from = from
        self.to = to
        self.subject = subject
        self.date = date
        self.messageID = messageID
        self.text = text
        self.html = html
        self.images = images
        self.extraHeaders = extraHeaders
    }

    /// The whole message, lines ending in CRLF. `boundary` separates the parts (random for each message).
    public func rendered(boundary: String = "saessak_" + UUID().uuidString.lowercased()) -> Data {
        var out = ""
        func header(_ name: String, _ value: String) { out += "\(name): \(value)\r\n" }
        header("From", Self.mailbox(from))
        header("To", Self.mailbox(to))
        header("Subject", Self.encodedWords(subject, reserved: "Subject: ".count))
        header("Date", Self.rfc5322Date(date))
        header("Message-ID", "<\(messageID)>")
        header("MIME-Version", "1.0")
        for (name, value) in extraHeaders where Self.isSafeHeader(name: name, value: value) { header(name, value) }

        let alternative = "alt_" + boundary
        var body = ""
        if images.isEmpty {
            header("Content-Type", "multipart/alternative; boundary=\"\(alternative)\"")
        } else {
            header("Content-Type", "multipart/related; type=\"multipart/alternative\"; boundary=\"\(boundary)\"")
            body += "--\(boundary)\r\nContent-Type: multipart/alternative; boundary=\"\(alternative)\"\r\n\r\n"
        }
        body += "--\(alternative)\r\n" + Self.part(type: "text/plain; charset=UTF-8", Data(text.utf8))
        body += "--\(alternative)\r\n" + Self.part(type: "text/html; charset=UTF-8", Data(html.utf8))
        body += "--\(alternative)--\r\n"
        if !images.isEmpty {
            for image in images {
                body += "--\(boundary)\r\n"
                body += Self.part(
                    type: "\(image.mediaType); name=\"\(image.filename)\"", image.bytes,
                    more: "Content-ID: <\(image.contentID)>\r\nContent-Disposition: inline; filename=\"\(image.filename)\"\r\n")
            }
            body += "--\(boundary)--\r\n"
        }
        out += "\r\n" + body
        return Data(out.utf8)
    }

    private static func part(type: String, _ bytes: Data, more: String = "") -> String {
        "Content-Type: \(type)\r\nContent-Transfer-Encoding: base64\r\n\(more)\r\n" + base64Lines(bytes)
    }

    /// Base64 in lines of 76 characters, each ending in CRLF.
    static func base64Lines(_ bytes: Data) -> String {
        let encoded = bytes.base64EncodedString(options: [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
        return encoded.isEmpty ? "" : encoded + "\r\n"
    }

    /// `"이름" <a@b>` with the name as encoded words when it is not plain ASCII.
    static func mailbox(_ person: Person) -> String {
        let name = person.name.filter { !$0.isNewline && $0 != "\"" && $0 != "\\" }
        guard !name.isEmpty else { return "<\(person.address)>" }
        if name.unicodeScalars.allSatisfy({ $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F }) {
            return "\"\(name)\" <\(person.address)>"
        }
        return "\(encodedWords(name, reserved: 0)) <\(person.address)>"
    }

    /// RFC 2047 B-encoded words (`=?UTF-8?B?…?=`) for text with other than printable ASCII, each word at most 75
    /// characters and whole characters only, folded onto lines of their own; plain ASCII stays as it is.
    static func encodedWords(_ text: String, reserved: Int) -> String {
        let cleaned = String(text.map { $0.isNewline ? " " : $0 })
        if cleaned.unicodeScalars.allSatisfy({ $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F }), cleaned.count + reserved <= 76 {
            return cleaned
        }
        // 75 - "=?UTF-8?B?".count - "?=".count = 63 base64 characters: 45 bytes of UTF-8 per word at most.
        var words: [[UInt8]] = []
        var chunk: [UInt8] = []
        for character in cleaned {
            let bytes = Array(String(character).utf8)
            if chunk.count + bytes.count > 45, !chunk.isEmpty {
                words.append(chunk)
                chunk = []
            }
            chunk += bytes.prefix(45)
        }
        if !chunk.isEmpty { words.append(chunk) }
        return words.map { "=?UTF-8?B?\(Data($0).base64EncodedString())?=" }.joined(separator: "\r\n ")
    }

    /// `Tue, 24 Nov 2026 07:00:00 +0000`.
    static func rfc5322Date(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int?) -> String { let v = value ?? 0; return v < 10 ? "0\(v)" : "\(v)" }
        let weekday = weekdays[((parts.weekday ?? 1) - 1 + 7) % 7]
        let month = months[((parts.month ?? 1) - 1 + 12) % 12]
        return "\(weekday), \(parts.day ?? 1) \(month) \(parts.year ?? 1970) \(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) +0000"
    }

    private static func isSafeHeader(name: String, value: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ":") }
            && value.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }
}
