import Diary
import Foundation
import Hummingbird
import KoreanCalendar
import Persistence
import Photos
import Services

/// `/children`: the family's children; adding and editing one (solar or lunar birth date with the leap-month flag,
/// a profile photo shown square-cropped), and deleting one after saying what goes with the child.
struct ChildrenPages {
    let stores: WebStores

    /// What `child-editor.mustache` shows.
    struct EditorModel: PageModel {
        let action: String
        let draft: ChildDraft
        let lunar: Bool
        let solar: Bool
        let female: Bool
        let male: Bool
        let cancel: String
        let id: String?
        let photo: String?
        let error: String?
    }

    func register(on pages: SecureRoutes) {
        pages.get("children", .viewer, statements: 8) { request, context in
            let language = Language(request)
            let today = stores.today.date()
            let children = try await stores.allChildren(try context.member().familyID)
            return WebPage(
                "children", title: Words.table(language)[.children], tab: .more,
                model: CardList(children: children.map { ChildCard($0, today: today, language: language) })
            ).response(request, context: context)
        }
        pages.get("children/new", .editor, statements: 4) { request, context in
            form(request, context: context, draft: ChildDraft(), child: nil, error: nil)
        }
        pages.post("children/new", .editor) { request, context in try await save(request, context: context, id: nil) }
        pages.get("children/:id/edit", .editor, statements: 8) { request, context in
            let child = try await stores.children.get(family: try context.member().familyID, id: try context.id(of: "child"))
            return form(request, context: context, draft: ChildDraft(child), child: child, error: nil)
        }
        pages.post("children/:id/edit", .editor) { request, context in
            try await save(request, context: context, id: try context.id(of: "child"))
        }
        pages.get("children/:id/delete", .editor, statements: 15) { request, context in
            let family = try context.member().familyID
            let child = try await stores.children.get(family: family, id: try context.id(of: "child"))
            let entries = try await Page.all {
                try await stores.entries.list(family: family, filter: TimelineFilter(childID: child.id), after: $0, limit: $1)
            }
            let only = entries.filter { $0.content.childIDs.count == 1 }.count
            let language = Language(request)
            let name = child.profile.name
            let consequences = language == .korean
                ? ["\(name)만의 일기 \(only)개와 그 사진", "\(name)의 병원·행사 기록, 기념일, 예방접종과 성장 기록", "프로필 사진",
                    "다른 아이와 함께 쓴 일기 \(entries.count - only)개는 남고, \(name)만 빠집니다."]
                : ["\(only) entries about \(name) alone, with their photos", "\(name)'s visits, anniversaries, vaccinations and growth records",
                    "the profile photo", "\(entries.count - only) entries shared with a sibling stay, without \(name)."]
            return WebPage(
                "confirm-delete", title: Words.table(language)[.deleteChild], tab: .more,
                model: ConfirmDelete(
                    name: name, action: "/children/\(child.id)/delete", back: "/children", consequences: consequences, toTrash: true)
            ).response(request, context: context)
        }
        // The one delete that still asks first: a child takes much along. It goes to the trash all the same.
        pages.post("children/:id/delete", .editor) { request, context in
            let item = try await stores.children.delete(family: try context.member().familyID, id: try context.id(of: "child"), by: context.userID)
            return await TrashPages.deleted(item, then: "/children", request: request, context: context)
        }
    }

    private func form(_ request: Request, context: AppRequestContext, draft: ChildDraft, child: Child?, error: String?) -> Response {
        let words = Words.table(Language(request))
        let action = child.map { "/children/\($0.id)/edit" } ?? "/children/new"
        let model = EditorModel(
            action: "\(action)?\(WebCredentials.csrfField)=\(context.session?.csrfToken ?? "")", draft: draft,
            lunar: draft.calendar == "lunar", solar: draft.calendar != "lunar", female: draft.sex == "female", male: draft.sex == "male",
            cancel: "/children", id: child?.id.description, photo: child.flatMap { $0.photoID == nil ? nil : PhotoLinks.profile($0.id) },
            error: error)
        return WebPage(
            "child-editor", title: words[child == nil ? .addChild : .editChild], tab: .more, model: model,
            status: error == nil ? .ok : .unprocessableContent
        ).response(request, context: context)
    }

    private func save(_ request: Request, context: AppRequestContext, id: ChildID?) async throws -> Response {
        let family = try context.member().familyID
        var current: Child?
        if let id { current = try await stores.children.get(family: family, id: id) }
        let form = try await MultipartForm.read(request, service: stores.photos)
        let draft = ChildDraft(form)
        do {
            let profile = try draft.payload().profile(current: current?.profile)
            // The photo is checked before anything is saved: a bad file changes nothing.
            var photo: Photo?
            if !form.uploads.isEmpty {
                photo = try await stores.photos.ingest(
                    Array(form.uploads.prefix(1)), family: family, entry: nil, now: stores.today.clock.now()
                ).first
                form.uploads.dropFirst().forEach { $0.abandon() }
            }
            let child: Child
            if let id {
                child = try await stores.children.update(family: family, id: id, profile: profile)
            } else {
                child = try await stores.children.create(family: family, profile: profile)
            }
            if let photo {
                await stores.photos.release(try await stores.photos.store.setProfilePhoto(photo.id, family: family, child: child.id))
                _ = try await stores.photos.thumbnail(photo, size: .square)
            }
            await context.record(id == nil ? .created : .edited, child)
            return AccountPages.redirect("/?child=\(child.id)")
        } catch let error as ValidationError {
            form.uploads.forEach { $0.abandon() }
            return self.form(request, context: context, draft: draft, child: current, error: error.text(Language(request)))
        } catch let error as PhotoError {
            return self.form(request, context: context, draft: draft, child: current, error: error.text(Language(request)))
        }
    }
}

/// A child's form as text.
struct ChildDraft {
    var name = ""
    var nickname = ""
    var birthDate = ""
    var calendar = "solar"
    var isLeapMonth = false
    var birthTime = ""
    var sex = ""
    var birthplace = ""
    var hospital = ""
    var residentNumber = ""

    init() {}

    init(_ child: Child) {
        let profile = child.profile
        name = profile.name
        nickname = profile.nickname ?? ""
        birthDate = profile.birthDate.iso
        calendar = profile.birthDate.calendar.rawValue
        isLeapMonth = profile.birthDate.isLeapMonth
        birthTime = profile.birthTime?.iso ?? ""
        sex = profile.sex?.rawValue ?? ""
        birthplace = profile.birthplace ?? ""
        hospital = profile.hospital ?? ""
        residentNumber = profile.residentNumber?.masked ?? ""
    }

    init(_ form: MultipartForm) {
        name = form.field("name") ?? ""
        nickname = form.field("nickname") ?? ""
        birthDate = form.field("birthDate") ?? ""
        calendar = form.field("birthCalendar") ?? "solar"
        isLeapMonth = form.field("isLeapMonth") == "true"
        birthTime = form.field("birthTime") ?? ""
        sex = form.field("sex") ?? ""
        birthplace = form.field("birthplace") ?? ""
        hospital = form.field("hospital") ?? ""
        residentNumber = form.field("residentNumber") ?? ""
    }

    func payload() throws -> ChildPayload {
        guard let kind = CalendarKind(rawValue: calendar) else { throw ValidationError(field: "birthCalendar", "must be solar or lunar") }
        let sex: Sex?
        if let text = self.sex.nonBlank {
            guard let value = Sex(rawValue: text) else { throw ValidationError(field: "sex", "must be female or male") }
            sex = value
        } else {
            sex = nil
        }
        let number = residentNumber.nonBlank
        return ChildPayload(
            name: name, nickname: nickname.nonBlank, birthDate: birthDate.trimmingCharacters(in: .whitespaces), birthCalendar: kind,
            isLeapMonth: kind == .lunar && isLeapMonth, birthTime: birthTime.nonBlank, sex: sex, birthplace: birthplace.nonBlank,
            hospital: hospital.nonBlank, residentNumber: number.map { .set($0) } ?? .clear)
    }
}
