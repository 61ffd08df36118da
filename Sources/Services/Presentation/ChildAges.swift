import Diary
import KoreanCalendar

/// The family's children by ID, for the age written beside an entry or under a photo: 하늘 생후 100일.
public struct ChildAges {
    public let children: [ChildID: Child]

    public init(_ children: [Child]) { self.children = Dictionary(children.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }) }

    /// The child's age label on `date` (nil before the birth, or for a birth outside the calendar tables).
    public func label(_ id: ChildID, on date: SolarDate, language: Language) -> String? {
        children[id]?.age(on: date).map { language == .korean ? $0.korean : $0.english }
    }

    /// `하늘 생후 100일 · 바다 3개월`: each named child with their age on `date` (or their name alone).
    /// Written into one string (every card of a timeline has one: the arrays joined twice were 1 % of it).
    public func line(_ ids: [ChildID], on date: SolarDate, language: Language) -> String? {
        var line: String?
        for id in ids {
            guard let child = children[id] else { continue }
            if line == nil { line = "" } else { line? += " · " }
            line? += child.profile.name
            if let age = child.age(on: date) { line? += " " + (language == .korean ? age.korean : age.english) }
        }
        return line
    }

    /// The children tagged on an entry dated `date` who were not born yet (the editor warns of them).
    public func unborn(_ ids: [ChildID], on date: SolarDate) -> [Child] {
        ids.compactMap { children[$0] }.filter { child in child.profile.birthDate.solarDate.map { date < $0 } ?? false }
    }
}
