/// What a check has already met, to drop repeats in order (an entry's children, its tags): a scan while there are few —
/// an entry has one or two children and a handful of tags, and building a set for them was a hundredth of reading a
/// timeline's entries back (issue 35) — and a set past that, so that a list sent with thousands stays linear.
struct Seen<Element: Hashable> {
    private var few: [Element] = []
    /// Used once `few` is full (an empty set allocates nothing).
    private var many: Set<Element> = []
    private static var scanned: Int { 16 }

    /// True when `element` is new (and now remembered), false for a repeat.
    mutating func insert(_ element: Element) -> Bool {
        if !many.isEmpty { return many.insert(element).inserted }
        if few.contains(element) { return false }
        if few.count < Self.scanned {
            few.append(element)
        } else {
            many = Set(few)
            many.insert(element)
            few = []
        }
        return true
    }
}
