import Diary
import Mustache

/// A page's own values, typed: its stored properties are the names its template reads (swift-mustache reads them by
/// reflection), so a value a page forgets or misspells fails to compile instead of leaving a blank in the page. Rows
/// of a list are structs too (`ChildChoice`, `EntryCard`, `NoticeLine`).
protocol PageModel {}

/// A page model with the layout's values (`WebPage.common`, the signed-in member) beneath it: the template finds a
/// name in the model first.
struct PageValues: MustacheParent {
    let model: TemplateValues
    let layout: [String: Any]

    init(model: any PageModel, layout: [String: Any]) {
        self.model = TemplateValues(model)
        self.layout = layout
    }

    func child(named name: String) -> Any? { model.child(named: name) ?? layout[name] }
}

/// A struct of a page model as the templates read it: its stored properties by name, reflected once. swift-mustache
/// would reflect a struct again for every name a template asks of it (every field of every card), and for every name
/// a card lacks climb to the page model and reflect that again: on a timeline of 30 cards that was most of the
/// page's time (docs/performance.md). Arrays and structs within are read the same way; an optional that is nil is
/// not there, so its section is skipped.
struct TemplateValues: MustacheParent {
    private let values: [String: Any]

    init(_ value: Any) { self.init(Mirror(reflecting: value)) }

    private init(_ mirror: Mirror) {
        var values: [String: Any] = [:]
        for case (let label?, let field) in mirror.children {
            if let shown = Self.shown(field) { values[label] = shown }
        }
        self.values = values
    }

    func child(named name: String) -> Any? { values[name] }

    /// A field as the template gets it: text, numbers and flags as they are (the cheap casts to a concrete type
    /// first: a cast to a protocol looks the conformance up, and a page has thousands of fields); optionals
    /// unwrapped; structs and arrays of them as `TemplateValues`.
    private static func shown(_ value: Any) -> Any? {
        if value is String || value is Bool || value is Int || value is [String] { return value }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional: return mirror.children.first.flatMap { shown($0.value) }
        case .struct: return TemplateValues(mirror)
        case .collection: return mirror.children.compactMap { shown($0.value) }
        default: return value
        }
    }
}

/// A child to choose (the home page's switcher, the album's menu).
struct ChildChoice {
    let id: String
    let name: String
    let selected: Bool

    init(_ child: Child, selected: Bool) {
        id = child.id.description
        name = child.profile.name
        self.selected = selected
    }
}

// The page models more than one page uses.

/// What `confirm-delete.mustache` shows: what is about to go, and what goes with it.
struct ConfirmDelete: PageModel {
    let name: String
    let action: String
    let back: String
    var consequences: [String] = []
    /// It goes to the trash (a child), not for good (emptying the trash).
    var toTrash = false
}

/// A page that shows a list of cards and nothing else (`children.mustache`).
struct CardList<Card>: PageModel {
    let children: [Card]
}

/// A choice of a `<select>`: its value, the name it shows, and whether it is chosen.
struct Option {
    let value: String
    let name: String
    var selected = false
}
