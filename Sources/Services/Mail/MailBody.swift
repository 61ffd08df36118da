import Foundation
import MailFormat

/// A mail's words, written twice as they are added: as plain text and as simple HTML (every piece of text escaped;
/// links made whole with the app's public address; pictures by `cid:`).
struct MailBody {
    let configuration: MailConfiguration
    private(set) var text = ""
    private var markup = ""
    private(set) var images: [MailMessage.InlineImage] = []

    init(configuration: MailConfiguration) { self.configuration = configuration }

    var pictureCount: Int { images.count }

    private func url(_ link: String) -> String { link.hasPrefix("/") ? configuration.publicURL + link : link }

    mutating func paragraph(_ words: String) {
        text += words + "\n\n"
        markup += "<p>\(HTML.escape(words))</p>\n"
    }

    mutating func heading(_ words: String) {
        text += "■ \(words)\n\n"
        markup += "<h2 style=\"font-size:18px;margin:24px 0 8px\">\(HTML.escape(words))</h2>\n"
    }

    mutating func entry(title: String, meta: String, excerpt: String?, link: String) {
        text += "\(title)\n\(meta)\n" + (excerpt.map { "\($0)\n" } ?? "") + "\(url(link))\n\n"
        markup += "<h3 style=\"font-size:16px;margin:16px 0 4px\"><a href=\"\(HTML.escape(url(link)))\">\(HTML.escape(title))</a></h3>\n"
        markup += "<p style=\"color:#555;margin:0 0 4px\">\(HTML.escape(meta))</p>\n"
        if let excerpt { markup += "<p style=\"margin:0 0 8px;white-space:pre-line\">\(HTML.escape(excerpt))</p>\n" }
    }

    mutating func pictures(_ pictures: [MailMessage.InlineImage], link: String, label: String) {
        guard !pictures.isEmpty else { return }
        markup += "<p>"
        for picture in pictures {
            markup += "<a href=\"\(HTML.escape(url(link)))\"><img src=\"cid:\(HTML.escape(picture.contentID))\" alt=\"\(HTML.escape(label))\" width=\"160\" style=\"margin:0 4px 4px 0;border-radius:8px\"></a>"
        }
        markup += "</p>\n"
        images += pictures
    }

    mutating func comment(author: String, text words: String, on what: String, link: String) {
        text += "\(author) (\(what)): \(words)\n\(url(link))\n\n"
        markup += "<p><strong>\(HTML.escape(author))</strong> <a href=\"\(HTML.escape(url(link)))\">\(HTML.escape(what))</a><br>"
        markup += "<span style=\"white-space:pre-line\">\(HTML.escape(words))</span></p>\n"
    }

    mutating func list(_ lines: [String]) {
        text += lines.map { "- \($0)" }.joined(separator: "\n") + "\n\n"
        markup += "<ul>" + lines.map { "<li>\(HTML.escape($0))</li>" }.joined() + "</ul>\n"
    }

    mutating func link(_ label: String, _ link: String) {
        text += "\(label): \(url(link))\n\n"
        markup += "<p><a href=\"\(HTML.escape(url(link)))\">\(HTML.escape(label))</a></p>\n"
    }

    mutating func footer(_ lines: [String], links: [(label: String, link: String)]) {
        text += "--\n" + lines.joined(separator: "\n") + "\n" + links.map { "\($0.label): \(url($0.link))" }.joined(separator: "\n") + "\n"
        markup += "<hr><footer style=\"color:#666;font-size:13px\">" + lines.map { "<p>\(HTML.escape($0))</p>" }.joined()
        markup += "<p>" + links.map { "<a href=\"\(HTML.escape(url($0.link)))\">\(HTML.escape($0.label))</a>" }.joined(separator: " · ") + "</p></footer>\n"
    }

    func html(language: Language, title: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="\(language.rawValue)"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">\
        <title>\(HTML.escape(title))</title></head>
        <body style="font-family:sans-serif;line-height:1.5;max-width:640px;margin:0 auto;padding:16px">
        \(markup)</body></html>
        """
    }
}
