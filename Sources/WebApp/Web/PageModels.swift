/// The page models more than one page uses.

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
