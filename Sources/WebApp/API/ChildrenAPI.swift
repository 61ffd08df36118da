import Diary
import Foundation
import Persistence
import Services
import KoreanCalendar

/// `/api/v1/children`: profiles, with the facts derived from the birth date.
struct ChildrenAPI {
    let store: any ChildStore
    let photos: PhotoService
    let today: Today

    var routes: CollectionRoutes<Child, Child, ChildPayload, ChildResource> {
        let (store, photos) = (store, photos)
        let today = today
        return CollectionRoutes(
            path: "children", statements: (list: 8, item: 8),
            list: { family, query in
                let paging = try query.paging()
                return try await store.list(family: family, after: paging.cursor, limit: paging.limit)
            },
            get: { family, id in try await store.get(family: family, id: id) },
            create: { family, payload in try await store.create(family: family, profile: try payload.profile(current: nil)) },
            update: { family, _, id, payload in
                let current = try await store.get(family: family, id: id)
                return try await store.update(family: family, id: id, profile: try payload.profile(current: current.profile))
            },
            delete: { family, user, id in try await store.delete(family: family, id: id, by: user) },
            resource: { ChildResource($0, today: today.date()) })
    }
}

extension ChildrenAPI {
    struct RevealedNumber: Encodable {
        let residentNumber: String?

        enum CodingKeys: CodingKey { case residentNumber }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(residentNumber, forKey: .residentNumber)  // null when none, never left out
        }
    }

    /// `GET /api/v1/children/{id}/resident-number`: the whole number, for an owner who asks (everyone else, owners
    /// included, sees it masked in the child's profile). Never cached.
    func registerReveal(on api: SecureRoutes) {
        api.get("children/:id/resident-number", .owner, statements: 8) { [store] _, context in
            let child = try await store.get(family: try context.member().familyID, id: try context.id(of: "child"))
            var response = try JSONBody.response(RevealedNumber(residentNumber: child.profile.residentNumber?.formatted))
            response.headers[.cacheControl] = "no-store"
            return response
        }
    }
}

/// What a client sends to create or replace a child.
///
/// `residentNumber` is write-mostly: a full number sets it; `null` or `""` clears it; leaving it out, or sending
/// back the masked form the API showed, keeps the stored one.
struct ChildPayload: Decodable {
    let name: String
    let nickname: String?
    let birthDate: String
    let birthCalendar: CalendarKind?
    let isLeapMonth: Bool?
    let birthTime: String?
    let sex: Sex?
    let birthplace: String?
    let hospital: String?
    let residentNumber: ResidentNumberChange

    enum ResidentNumberChange {
        case keep, clear, set(String)
    }

    init(
        name: String, nickname: String?, birthDate: String, birthCalendar: CalendarKind?, isLeapMonth: Bool?,
        birthTime: String?, sex: Sex?, birthplace: String?, hospital: String?, residentNumber: ResidentNumberChange
    ) {
        self.name = name
        self.nickname = nickname
        self.birthDate = birthDate
        self.birthCalendar = birthCalendar
        self.isLeapMonth = isLeapMonth
        self.birthTime = birthTime
        self.sex = sex
        self.birthplace = birthplace
        self.hospital = hospital
        self.residentNumber = residentNumber
    }

    enum CodingKeys: String, CodingKey {
        case name, nickname, birthDate, birthCalendar, isLeapMonth, birthTime, sex, birthplace, hospital, residentNumber
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        nickname = try container.decodeIfPresent(String.self, forKey: .nickname)
        birthDate = try container.decode(String.self, forKey: .birthDate)
        birthCalendar = try container.decodeIfPresent(CalendarKind.self, forKey: .birthCalendar)
        isLeapMonth = try container.decodeIfPresent(Bool.self, forKey: .isLeapMonth)
        birthTime = try container.decodeIfPresent(String.self, forKey: .birthTime)
        sex = try container.decodeIfPresent(Sex.self, forKey: .sex)
        birthplace = try container.decodeIfPresent(String.self, forKey: .birthplace)
        hospital = try container.decodeIfPresent(String.self, forKey: .hospital)
        if !container.contains(.residentNumber) {
            residentNumber = .keep
        } else if let text = try container.decodeIfPresent(String.self, forKey: .residentNumber), !text.isEmpty {
            residentNumber = .set(text)
        } else {
            residentNumber = .clear
        }
    }

    func profile(current: ChildProfile?) throws -> ChildProfile {
        let number: ResidentNumber?
        switch residentNumber {
        case .keep: number = current?.residentNumber
        case .clear: number = nil
        case .set(let text) where text == current?.residentNumber?.masked: number = current?.residentNumber
        case .set(let text): number = try ResidentNumber(text)
        }
        return try ChildProfile(
            name: name, nickname: nickname,
            birthDate: try BirthDate(iso: birthDate, calendar: birthCalendar ?? .solar, isLeapMonth: isLeapMonth ?? false),
            birthTime: try birthTime.map { text in try Validate.field("birthTime") { try ClockTime(iso: text) } },
            sex: sex, birthplace: birthplace, hospital: hospital, residentNumber: number)
    }
}
