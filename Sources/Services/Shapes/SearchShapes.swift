import Diary
import Persistence

/// A search hit as the API shows it and the pages list it.
public struct SearchHitResource: Encodable, Sendable {
    public let kind: String
    public let id: String
    public let title: String
    /// HTML: the passage's text escaped, each match inside `<mark>…</mark>`.
    public let snippet: String

    public init(_ hit: SearchHit) {
        kind = hit.kind.rawValue
        id = hit.id
        title = hit.title
        snippet = hit.snippet.parts.map { part in
            part.isMatch ? "<mark>\(HTML.escape(part.text))</mark>" : HTML.escape(part.text)
        }.joined()
    }
}
