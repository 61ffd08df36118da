import Diary
import Foundation
import Hummingbird
import KoreanCalendar
import Persistence
import Services

/// `/more` (every other page), `/memos` (newest change first, search, edit, delete), `/anniversaries` (solar or
/// lunar, leap month, shown red like a holiday, optionally a child's) and `/calculator`.
struct NotebookPages {
    let stores: WebStores

    func register(on pages: SecureRoutes) {
        pages.get("more", .viewer, statements: 4) { request, context in
            WebPage("more", title: Words.table(Language(request))[.more], tab: .more).response(request, context: context)
        }
        registerMemos(on: pages)
        registerAnniversaries(on: pages)
        registerCalculator(on: pages)
    }

    // MARK: Memos

    /// What `memos.mustache` shows: the memos, or the hits of a search in them.
    struct MemosModel: PageModel {
        var q: String?
        var hits: [MemoHit]?
        var memos: [MemoRow]?
        var next: String?
    }

    struct MemoHit {
        let id: String
        let title: String
        let snippet: String
    }

    struct MemoRow {
        let id: String
        let title: String
        let excerpt: String
        let modified: String
    }

    /// What `memo.mustache` shows.
    struct MemoModel: PageModel {
        let action: String
        let memoTitle: String
        let body: String
        let back: String
        /// Where the delete button posts the form (to the trash, no confirmation).
        let deleteAction: String?
        let error: String?
    }

    private func registerMemos(on pages: SecureRoutes) {
        pages.get("memos", .viewer, statements: 8) { request, context in
            let language = Language(request)
            let family = try context.member().familyID
            let query = Query(request: request)
            var model = MemosModel()
            if let text = query.string("q") {
                model.q = text
                do {
                    let hits = try await stores.search.search(family: family, try SearchQuery(text), after: nil, limit: 100)
                    model.hits = hits.items.filter { $0.kind == .memo }.map { hit in
                        MemoHit(id: hit.id, title: hit.title, snippet: SearchHitResource(hit).snippet)
                    }
                } catch let error as ValidationError {
                    throw Problem(status: .badRequest, detail: error.text(Language(request)), field: "q")
                }
            } else {
                let paging = try query.paging()
                let page = try await stores.memos.list(family: family, after: paging.cursor, limit: 50)
                model.memos = page.items.map { memo in
                    MemoRow(
                        id: memo.id.description, title: memo.content.title, excerpt: String(memo.content.body.prefix(120)),
                        modified: language.longDate(Today.local(memo.modifiedAt).date))
                }
                model.next = page.next.map { "/memos?cursor=\($0.description.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }
            }
            return WebPage("memos", title: Words.table(language)[.memos], tab: .more, model: model).response(request, context: context)
        }
        pages.get("memos/new", .editor, statements: 4) { request, context in
            memoForm(request, context: context, title: "", body: "", id: nil, error: nil)
        }
        pages.post("memos/new", .editor) { request, context in
            do {
                let memo = try await stores.memos.create(
                    family: try context.member().familyID,
                    content: try MemoContent(title: context.form["title"] ?? "", body: context.form["body"] ?? ""))
                await context.record(.created, memo)
                return AccountPages.redirect("/memos/\(memo.id)")
            } catch let error as ValidationError {
                return memoForm(request, context: context, title: context.form["title"] ?? "", body: context.form["body"] ?? "",
                    id: nil, error: error.text(Language(request)))
            }
        }
        pages.get("memos/:id", .viewer, statements: 8) { request, context in
            let memo = try await stores.memos.get(family: try context.member().familyID, id: try context.id(of: "memo"))
            return memoForm(request, context: context, title: memo.content.title, body: memo.content.body, id: memo.id, error: nil)
        }
        pages.post("memos/:id", .editor) { request, context in
            let id: MemoID = try context.id(of: "memo")
            do {
                let memo = try await stores.memos.update(
                    family: try context.member().familyID, id: id,
                    content: try MemoContent(title: context.form["title"] ?? "", body: context.form["body"] ?? ""))
                await context.record(.edited, memo)
                return AccountPages.redirect("/memos")
            } catch let error as ValidationError {
                return memoForm(request, context: context, title: context.form["title"] ?? "", body: context.form["body"] ?? "",
                    id: id, error: error.text(Language(request)))
            }
        }
        // No confirmation: the memo goes to the trash, and the list offers 실행 취소.
        pages.post("memos/:id/delete", .editor) { request, context in
            let item = try await stores.memos.delete(family: try context.member().familyID, id: try context.id(of: "memo"), by: context.userID)
            return await TrashPages.deleted(item, then: "/memos", request: request, context: context)
        }
    }

    private func memoForm(_ request: Request, context: AppRequestContext, title: String, body: String, id: MemoID?, error: String?)
        -> Response
    {
        let words = Words.table(Language(request))
        let model = MemoModel(
            action: id.map { "/memos/\($0)" } ?? "/memos/new", memoTitle: title, body: body, back: "/memos",
            deleteAction: id.map { "/memos/\($0)/delete" }, error: error)
        return WebPage(
            "memo", title: id == nil ? words[.newMemo] : (title.isEmpty ? words[.memo] : title), tab: .more, model: model,
            status: error == nil ? .ok : .unprocessableContent
        ).response(request, context: context)
    }

    // MARK: Anniversaries

    /// What `anniversaries.mustache` shows.
    struct AnniversariesModel: PageModel {
        let anniversaries: [AnniversaryRow]
    }

    struct AnniversaryRow {
        let id: String
        let name: String
        let rule: String
        let isHoliday: Bool
        let next: String?
        let child: String?
    }

    /// What `anniversary-editor.mustache` shows.
    struct AnniversaryEditorModel: PageModel {
        let action: String
        let name: String
        let month: String
        let day: String
        let lunar: Bool
        let solar: Bool
        let isLeapMonth: Bool
        let isHoliday: Bool
        let children: [ChildChoice]
        /// Where the delete button posts the form (to the trash, no confirmation).
        let deleteAction: String?
        let error: String?
    }

    private func registerAnniversaries(on pages: SecureRoutes) {
        pages.get("anniversaries", .viewer, statements: 12) { request, context in
            let language = Language(request)
            let family = try context.member().familyID
            let names = Dictionary(uniqueKeysWithValues: try await stores.allChildren(family).map { ($0.id, $0.profile.name) })
            let today = stores.today.date()
            let last = (try? today.adding(days: 366)) ?? today
            let anniversaries = try await Page.all { try await stores.anniversaries.list(family: family, after: $0, limit: $1) }
            let rows = anniversaries.map { anniversary in
                let details = anniversary.details
                let next = Notices.occurrences(details, around: today, last: last).filter { $0 >= today }.min()
                return AnniversaryRow(
                    id: anniversary.id.description, name: details.name, rule: Self.rule(details, language: language),
                    isHoliday: details.isHoliday, next: next.map { "\(language.longDate($0)) (\(language.daysAway(today.days(until: $0))))" },
                    child: details.childID.flatMap { names[$0] })
            }
            return WebPage("anniversaries", title: Words.table(language)[.anniversaries], tab: .more, model: AnniversariesModel(anniversaries: rows))
                .response(request, context: context)
        }
        pages.get("anniversaries/new", .editor, statements: 8) { request, context in
            try await anniversaryForm(request, context: context, fields: [:], id: nil, error: nil)
        }
        pages.post("anniversaries/new", .editor) { request, context in try await saveAnniversary(request, context: context, id: nil) }
        pages.get("anniversaries/:id/edit", .editor, statements: 12) { request, context in
            let anniversary = try await stores.anniversaries.get(family: try context.member().familyID, id: try context.id(of: "anniversary"))
            let details = anniversary.details
            let fields: [String: String] = [
                "name": details.name, "calendar": details.calendar.rawValue, "month": String(details.month), "day": String(details.day),
                "isLeapMonth": details.isLeapMonth ? "true" : "", "isHoliday": details.isHoliday ? "true" : "",
                "child": details.childID?.description ?? "",
            ]
            return try await anniversaryForm(request, context: context, fields: fields, id: anniversary.id, error: nil)
        }
        pages.post("anniversaries/:id/edit", .editor) { request, context in
            try await saveAnniversary(request, context: context, id: try context.id(of: "anniversary"))
        }
        // No confirmation: the anniversary goes to the trash, and the list offers 실행 취소.
        pages.post("anniversaries/:id/delete", .editor) { request, context in
            let item = try await stores.anniversaries.delete(
                family: try context.member().familyID, id: try context.id(of: "anniversary"), by: context.userID)
            return await TrashPages.deleted(item, then: "/anniversaries", request: request, context: context)
            return AccountPages.redirect("/anniversaries")
        }
    }

    static func rule(_ details: AnniversaryDetails, language: Language) -> String {
        switch (details.calendar, language) {
        case (.solar, .korean): "매년 양력 \(details.month)월 \(details.day)일"
        case (.lunar, .korean): "매년 음력 \(details.isLeapMonth ? "윤" : "")\(details.month)월 \(details.day)일"
        case (.solar, .english): "every year on \(details.month)/\(details.day)"
        case (.lunar, .english): "every year on lunar \(details.isLeapMonth ? "leap " : "")\(details.month)/\(details.day)"
        }
    }

    private func anniversaryForm(
        _ request: Request, context: AppRequestContext, fields: [String: String], id: AnniversaryID?, error: String?
    ) async throws -> Response {
        let words = Words.table(Language(request))
        let children = try await stores.allChildren(try context.member().familyID)
        let model = AnniversaryEditorModel(
            action: id.map { "/anniversaries/\($0)/edit" } ?? "/anniversaries/new", name: fields["name"] ?? "", month: fields["month"] ?? "",
            day: fields["day"] ?? "", lunar: fields["calendar"] == "lunar", solar: fields["calendar"] != "lunar",
            isLeapMonth: fields["isLeapMonth"] == "true", isHoliday: fields["isHoliday"] == "true",
            children: children.map { ChildChoice($0, selected: $0.id.description == fields["child"]) },
            deleteAction: id.map { "/anniversaries/\($0)/delete" }, error: error)
        return WebPage(
            "anniversary-editor", title: words[id == nil ? .newAnniversary : .editAnniversary], tab: .more, model: model,
            status: error == nil ? .ok : .unprocessableContent
        ).response(request, context: context)
    }

    private func saveAnniversary(_ request: Request, context: AppRequestContext, id: AnniversaryID?) async throws -> Response {
        let family = try context.member().familyID
        let form = context.form
        do {
            guard let calendar = CalendarKind(rawValue: form["calendar"] ?? "solar") else {
                throw ValidationError(field: "calendar", "must be solar or lunar")
            }
            guard let month = Int(form.text("month") ?? "") else { throw ValidationError(field: "month", .notANumber) }
            guard let day = Int(form.text("day") ?? "") else { throw ValidationError(field: "day", .notANumber) }
            let child = form.text("child").flatMap(ChildID.init)
            let details = try AnniversaryDetails(
                name: form["name"] ?? "", calendar: calendar, month: month, day: day,
                isLeapMonth: calendar == .lunar && form["isLeapMonth"] == "true", isHoliday: form["isHoliday"] == "true", childID: child)
            if let id {
                await context.record(.edited, try await stores.anniversaries.update(family: family, id: id, details: details))
            } else {
                await context.record(.created, try await stores.anniversaries.create(family: family, details: details))
            }
            return AccountPages.redirect("/anniversaries")
        } catch let error as ValidationError {
            let fields = ["name", "calendar", "month", "day", "isLeapMonth", "isHoliday", "child"].reduce(into: [String: String]()) {
                $0[$1] = form[$1] ?? ""
            }
            return try await anniversaryForm(request, context: context, fields: fields, id: id, error: error.text(Language(request)))
        } catch let error as StoreError {
            return try await anniversaryForm(request, context: context, fields: [:], id: id, error: error.description)
        }
    }

    // MARK: Calculator

    /// What `calculator.mustache` shows: the display, the state the next key carries back, and the keys.
    struct CalculatorModel: PageModel {
        let display: String
        let state: String
        let keys: [CalculatorKey]
    }

    struct CalculatorKey {
        let key: String
        let kind: String
    }

    private func registerCalculator(on pages: SecureRoutes) {
        pages.get("calculator", .viewer, statements: 4) { request, context in
            calculatorPage(request, context: context, calculator: Calculator())
        }
        // Without the script, each key is a form post carrying the state back.
        pages.post("calculator", .viewer) { request, context in
            var calculator = Calculator()
            if let state = context.form.text("state") {
                guard let decoded = try? JSONDecoder().decode(Calculator.self, from: Data(state.utf8)) else {
                    throw Problem(status: .badRequest, detail: "state: not a calculator state", field: "state")
                }
                calculator = decoded
            }
            guard let key = Calculator.Key(context.form["key"] ?? "") else {
                throw Problem(status: .badRequest, detail: "key: not a calculator key", field: "key")
            }
            calculator.press(key)
            return calculatorPage(request, context: context, calculator: calculator)
        }
    }

    private func calculatorPage(_ request: Request, context: AppRequestContext, calculator: Calculator) -> Response {
        let state = (try? JSONEncoder().encode(calculator)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let rows = [["C", "÷"], ["7", "8", "9", "×"], ["4", "5", "6", "-"], ["1", "2", "3", "+"], ["0", ".", "="]]
        let keys = rows.flatMap { $0 }.map { key in
            let kind = key == "=" ? "eq" : ["÷", "×", "-", "+", "C"].contains(key) ? "op" : ""
            return CalculatorKey(key: key, kind: kind + (key == "C" ? " span3" : key == "0" ? " span2" : ""))
        }
        return WebPage(
            "calculator", title: Words.table(Language(request))[.calculator], tab: .more,
            model: CalculatorModel(display: calculator.display, state: state, keys: keys)
        ).response(request, context: context)
    }
}
