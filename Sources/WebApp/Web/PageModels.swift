import Diary
import Mustache

/// A page's own values, typed: its stored properties are the names its template reads (swift-mustache reads them by
/// reflection), so a value a page forgets or misspells fails to compile instead of leaving a blank in the page. Rows
/// of a list are structs too (`ChildChoice`, `EntryCard`, `NoticeLine`).
protocol PageModel {}

/// A page model with the layout's values (`WebPage.common`, the signed-in member) beneath it: the template finds a
/// name in the model first.
struct PageValues: MustacheParent {
    let model: any PageModel
    let layout: [String: Any]

    func child(named name: String) -> Any? {
        if let value = Mirror(reflecting: model).descendant(name) {
            // An optional property that is nil is not there: the template's section is skipped.
            let mirror = Mirror(reflecting: value)
            guard mirror.displayStyle == .optional else { return value }
            return mirror.children.first?.value
        }
        return layout[name]
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
