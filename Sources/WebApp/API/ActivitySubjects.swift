import Diary

/// What the activity record says a change was made to: its kind, ID and a few words to know it by. Every item the
/// API's collections and the pages create or edit is one, so a route records it in one line.
protocol ActivitySubject {
    var activityKind: ActivityKind { get }
    var activityID: String { get }
    var activityLabel: String { get }
}

extension AppRequestContext {
    /// The `username` path parameter, percent-decoded (names may be Korean).
    func username() -> String {
        let raw = parameters.get("username") ?? ""
        return raw.removingPercentEncoding ?? raw
    }

    /// `record(_:_:id:label:detail:)` for an item the request made or changed.
    func record(_ action: ActivityAction, _ subject: some ActivitySubject, detail: String = "") async {
        await record(action, subject.activityKind, id: subject.activityID, label: subject.activityLabel, detail: detail)
    }

    /// `record` for what a trash item was: restored (each of what a restore put back) or purged.
    func record(_ action: ActivityAction, trashed items: [TrashItem]) async {
        for item in items { await record(action, ActivityKind(item.kind), id: item.itemID, label: item.label) }
    }
}

extension Invitation: ActivitySubject {
    var activityKind: ActivityKind { .invitation }
    var activityID: String { id.description }
    /// The role it offers: an invitation has no name, and its link is a password.
    var activityLabel: String { role.rawValue }
}

extension ShareLink: ActivitySubject {
    var activityKind: ActivityKind { .shareLink }
    var activityID: String { id.description }
    var activityLabel: String { Activity.label(label ?? "") }
}

extension APIToken: ActivitySubject {
    var activityKind: ActivityKind { .token }
    var activityID: String { id.description }
    /// Its name (`photo frame`), never the token.
    var activityLabel: String { Activity.label(name) }
}

extension Entry: ActivitySubject {
    var activityKind: ActivityKind { .entry }
    var activityID: String { id.description }
    var activityLabel: String { Activity.label(title: content.title, body: content.body) }
}

extension EntriesAPI.AgedEntry: ActivitySubject {
    var activityKind: ActivityKind { .entry }
    var activityID: String { entry.activityID }
    var activityLabel: String { entry.activityLabel }
}

extension Child: ActivitySubject {
    var activityKind: ActivityKind { .child }
    var activityID: String { id.description }
    var activityLabel: String { profile.name }
}

extension Memo: ActivitySubject {
    var activityKind: ActivityKind { .memo }
    var activityID: String { id.description }
    var activityLabel: String { Activity.label(title: content.title, body: content.body) }
}

extension Event: ActivitySubject {
    var activityKind: ActivityKind { .event }
    var activityID: String { id.description }
    var activityLabel: String { Activity.label(details.title) }
}

extension Anniversary: ActivitySubject {
    var activityKind: ActivityKind { .anniversary }
    var activityID: String { id.description }
    var activityLabel: String { Activity.label(details.name) }
}

extension Comment: ActivitySubject {
    var activityKind: ActivityKind { .comment }
    var activityID: String { id.description }
    var activityLabel: String { Activity.label(text) }
}

extension GrowthMeasurement: ActivitySubject {
    var activityKind: ActivityKind { .measurement }
    var activityID: String { id.description }
    var activityLabel: String { "\(value) \(unit.rawValue) · \(date.iso)" }
}

extension VaccinationShot: ActivitySubject {
    var activityKind: ActivityKind { .vaccination }
    var activityID: String { id.description }
    var activityLabel: String { "\(productName ?? record.product.rawValue) · \(record.date.iso)" }
}
