import Foundation
import Services

extension EntryCard {
    /// The timeline's card, written here and not in a template: by the template engine each card was a
    /// struct read by reflection and a dozen lookups through the context stack, each with dynamic casts — 2.5 ms of
    /// the 5.5 ms a busy 30-entry timeline took (issue 35, `perf` under the bench's four clients). The markup is the
    /// one the template had; every value goes through `HTML.escape` as the template's did.
    func timelineHTML(_ words: Words) -> String {
        var page = HTMLWriter(capacity: 512 + excerpt.utf8.count)
        writeTimeline(into: &page, words)
        return page.html
    }

    /// The card written at the end of `page` (the timeline writes its cards into its own writer).
    func writeTimeline(into page: inout HTMLWriter, _ words: Words) {
        page.markup("<li class=\"entry-card\">\n<div>\n<h3>")
        if isNew {
            page.markup("<span class=\"new-badge\">")
            page.text(words[.newBadge])
            page.markup("</span> ")
        }
        page.markup("<a href=\"/entries/")
        page.text(id)
        page.markup("\">")
        page.text(title)
        page.markup("</a></h3>\n<p class=\"meta\"><time datetime=\"")
        page.text(iso)
        page.markup("\">")
        page.text(date)
        page.markup("</time>")
        if let children {
            page.markup(" · ")
            page.text(children)
        }
        if let place {
            page.markup(" · 📍 ")
            page.text(place)
        }
        if let photoCount {
            page.markup(" · 📷 ")
            page.markup(String(photoCount))
        }
        page.markup("</p>\n<p class=\"excerpt\">")
        page.text(excerpt)
        page.markup("</p>\n")
        for tag in tags {
            page.markup("<a class=\"tag\" href=\"/timeline?tag=")
            page.text(Self.queryValue(tag))
            page.markup("\">#")
            page.text(tag)
            page.markup("</a>")
        }
        page.markup("\n</div>\n")
        if let thumbnail {
            page.markup("<a class=\"thumb-link\" href=\"/entries/")
            page.text(id)
            page.markup("\" tabindex=\"-1\"><img class=\"thumb\" src=\"")
            page.text(thumbnail)
            page.markup("\" alt=\"")
            page.text(title)
            page.markup("\" width=\"80\" height=\"80\" loading=\"lazy\" decoding=\"async\">")
            if let videoBadge {
                page.markup("<span class=\"video-badge\">")
                page.text(videoBadge)
                page.markup("</span>")
            }
            page.markup("</a>")
        }
        page.markup("\n</li>\n")
    }

    /// A tag as a query's value: `&`, `+`, `=`, `#` and the rest of what would end or change it percent-encoded —
    /// every UTF-8 byte but those of `CharacterSet.urlQueryAllowed` less `&+=#;`, as Foundation's
    /// `addingPercentEncoding` would, byte by byte from a table (Foundation's was 3 % of a busy timeline).
    static func queryValue(_ text: String) -> String {
        var encoded: [UInt8] = []
        encoded.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            if queryValueAllowed[Int(byte)] {
                encoded.append(byte)
            } else {
                // Byte by byte: an array of the three made for each byte of a Korean tag was 1.5 % of a busy timeline.
                encoded.append(UInt8(ascii: "%"))
                encoded.append(hexDigit(byte >> 4))
                encoded.append(hexDigit(byte & 0x0F))
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// `0`–`9`, `A`–`F` for 0–15.
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }

    /// By byte: ASCII letters and digits and `-._~!$'()*,:@/?`.
    static let queryValueAllowed: [Bool] = (0..<256).map { byte in
        guard byte < 0x80 else { return false }
        let ascii = UInt8(byte)
        return (ascii >= 0x30 && ascii <= 0x39) || (ascii >= 0x41 && ascii <= 0x5A) || (ascii >= 0x61 && ascii <= 0x7A)
            || "-._~!$'()*,:@/?".utf8.contains(ascii)
    }
}
