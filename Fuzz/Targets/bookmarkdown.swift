// libFuzzer target: an entry's body as the book sets it (Sources/Book) — its light Markdown read into blocks, made
// Pango markup, and laid out by Pango; and the same body as the archive's HTML. Whatever a family member typed, the
// markup we make must parse (a body that Pango refused would stop the whole book), and the HTML holds no tag but ours.
@testable import Book
import Foundation

nonisolated(unsafe) private let document = try! PrintDocument(path: "/dev/null", width: 420, height: 595)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBookMarkdown(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let body = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    let font = Fonts(size: .a5).body
    for block in LightMarkdown.blocks(body) {
        let inlines: [LightMarkdown.Inline]
        switch block {
        case .paragraph(let content), .heading(let content), .item(_, let content): inlines = content
        }
        guard let text = document.text(markup(inlines), font: font, width: 300, align: .justified) else {
            fatalError("Pango refused the markup made of: \(body.debugDescription)")
        }
        _ = text.height(of: 0..<text.lineCount)
    }
    // By scalar, as a browser reads it: `>` and a combining mark after it are one Character in Swift.
    let html = LightMarkdown.html(body)
    let ours: Set<String> = ["p", "/p", "br", "h3", "/h3", "ul", "/ul", "ol", "/ol", "li", "/li", "strong", "/strong", "em", "/em"]
    for tag in html.unicodeScalars.split(separator: "<").dropFirst() {
        let inside = tag.prefix { $0 != ">" }
        let name = String(String.UnicodeScalarView(inside.prefix { $0 != " " }))
        guard ours.contains(name), !inside.contains("\"") || name == "li" else {
            fatalError("the archive's HTML of \(body.debugDescription) has a tag not ours: <\(String(String.UnicodeScalarView(inside.prefix(40))))")
        }
    }
    return 0
}
