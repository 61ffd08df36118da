import Diary
import KoreanCalendar
import Photos
import Services

/// A form's mistake as the page says it: the field by the label the person saw, and what is wrong in their language.
/// The API and the CLI keep the English `field: message`; a rule the domain does not name yet shows its English words
/// after a Korean sentence, so nothing is hidden.
extension ValidationError {
    func text(_ language: Language) -> String {
        let label = Self.labels[field].map { $0.text(language) } ?? field
        guard let rule else {
            return language == .korean ? "\(label): 입력한 값을 확인해 주세요. (\(message))" : "\(label): \(message)"
        }
        return "\(label): \(rule.text(language))"
    }

    /// The form fields the domain names, by the words of their labels.
    private static let labels: [String: Word] = [
        "title": .entryTitle, "body": .entryBody, "childIds": .children, "tags": .tag, "place": .place, "place.latitude": .place,
        "place.longitude": .place, "place.name": .place, "weather": .weather, "name": .name, "nickname": .nickname,
        "birthDate": .birthDate, "birthTime": .birthTime, "isLeapMonth": .leapMonth, "birthplace": .birthplace, "hospital": .hospital,
        "residentNumber": .residentNumber, "sex": .sex, "month": .month, "day": .day, "value": .value, "kind": .kind,
        "diagnosis": .diagnosis, "notes": .notes, "text": .comment, "date": .date, "username": .username, "familyName": .familyName,
        "label": .label, "q": .search, "clinic": .clinic, "product": .vaccine, "password": .password, "newPassword": .newPassword,
        "currentPassword": .currentPassword, "calendar": .calendar,
    ]
}

extension ValidationError.Rule {
    func text(_ language: Language) -> String {
        let korean = language == .korean
        switch self {
        case .empty: return korean ? "비어 있습니다. 입력해 주세요." : "is empty: please fill it in."
        case .tooLong(let maximum, let got):
            return korean ? "\(maximum)자까지 쓸 수 있습니다 (지금 \(got)자)." : "can be at most \(maximum) characters (now \(got))."
        case .containsNUL: return korean ? "저장할 수 없는 문자(NUL)가 들어 있습니다." : "contains a character that cannot be kept (NUL)."
        case .invisible(let value):
            let code = "U+" + String(value, radix: 16, uppercase: true)
            return korean ? "보이지 않거나 글자 방향을 바꾸는 문자(\(code))는 이름에 쓸 수 없습니다." : "cannot hold an invisible or formatting character (\(code))."
        case .mixedScripts:
            return korean ? "한 가지 문자(한글, 로마자 등)로 써 주세요. 여러 문자를 섞으면 다른 이름과 헷갈립니다." : "must be written in one alphabet: mixed letters look like other names."
        case .lookAlike: return korean ? "이미 있는 사용자 이름과 너무 비슷합니다. 다른 이름을 골라 주세요." : "looks too much like a username already taken; choose another."
        case .tooManyMarks(let maximum):
            return korean ? "한 글자에 결합 부호를 \(maximum)개보다 많이 붙일 수 없습니다." : "cannot stack more than \(maximum) combining marks on one character."
        case .notANumber: return korean ? "숫자가 아닙니다." : "is not a number."
        case .notPositive: return korean ? "0보다 큰 숫자여야 합니다." : "must be a number above 0."
        case .noChild: return korean ? "아이를 한 명 이상 골라 주세요." : "choose at least one child."
        case .residentNumberForm: return korean ? "숫자 13자리(YYMMDD-NNNNNNN)로 입력해 주세요." : "must be 13 digits as YYMMDD-NNNNNNN."
        case .passwordLength: return Word.passwordTooShort.text(language)
        case .notCurrentPassword: return Word.wrongPassword.text(language)
        case .latitudeRange: return korean ? "위도는 -90에서 90 사이여야 합니다." : "the latitude must be between -90 and 90."
        case .longitudeRange: return korean ? "경도는 -180에서 180 사이여야 합니다." : "the longitude must be between -180 and 180."
        case .halfAPosition: return korean ? "위도와 경도를 함께 입력해 주세요." : "give the latitude and the longitude together."
        case .tooManyTags(let maximum, let got):
            return korean ? "태그는 \(maximum)개까지 달 수 있습니다 (지금 \(got)개)." : "at most \(maximum) tags (now \(got))."
        case .notATag(_, let maximum):
            return korean ? "태그는 1–\(maximum)자이고 쉼표가 없어야 합니다." : "a tag is 1–\(maximum) characters, without commas."
        case .implausible(_, let unit, _, let maximum):
            return korean ? "아이의 측정값이라기엔 너무 큽니다 (\(maximum) \(unit)까지)." : "too large for a child (at most \(maximum) \(unit))."
        case .monthRange: return korean ? "1월에서 12월 사이여야 합니다." : "must be 1–12."
        case .dayRange(let maximum, let lunar, let month, _):
            let calendar = (lunar ? Word.lunar : Word.solar).text(language)
            return korean ? "\(calendar) \(month)월은 \(maximum)일까지입니다." : "\(calendar) month \(month) has at most \(maximum) days."
        case .calendar(let error): return korean ? Self.korean(error) : "\(error)."
        }
    }

    /// A calendar's refusal in Korean (its English words are `CalendarError.description`).
    private static func korean(_ error: CalendarError) -> String {
        switch error {
        case .malformed(_, let expected): "날짜 형식이 아닙니다 (\(expected))."
        case .yearOutOfRange(let year):
            "\(year)년은 다룰 수 있는 해(\(SolarDate.supportedYears.lowerBound)–\(SolarDate.supportedYears.upperBound)년) 밖입니다."
        case .invalidMonth(let month): "\(month)월은 없습니다 (1–12월)."
        case .invalidDay(let year, let month, let day, let length): "\(year)년 \(month)월에는 \(day)일이 없습니다 (\(length)일까지)."
        case .invalidTime: "시각은 00:00–23:59 사이의 HH:MM 형식이어야 합니다."
        case .outsideLunarTable: "음력 자료(양력 1391년 2월 5일–2050년 12월 31일) 밖의 날짜입니다."
        case .outsideSolarTermYears(let year): "절기는 1900–2100년만 계산합니다 (\(year)년)."
        case .outsideHolidayYears(let year): "공휴일은 1985–2050년만 알고 있습니다 (\(year)년)."
        case .lunarDayMissing(let year, let month, let isLeapMonth, let day, let length):
            "음력 \(year)년 \(isLeapMonth ? "윤" : "")\(month)월은 \(length)일까지라서 \(day)일이 없습니다."
        case .noSuchLeapMonth(let year, let month, let leapMonth):
            "음력 \(year)년에는 윤\(month)월이 없습니다" + (leapMonth.map { " (그해 윤달은 윤\($0)월)." } ?? " (그해에는 윤달이 없습니다).")
        }
    }
}

extension PhotoError {
    /// A refused upload as the form says it: Korean words of its own, the limit or the reason in the server's words.
    func text(_ language: Language) -> String {
        guard language == .korean else { return Problem(self).detail }
        return switch self {
        case .unsupported: "사진이나 동영상으로 올릴 수 없는 파일입니다 (JPEG, PNG, WebP, HEIC, MP4, MOV, WebM만 받습니다)."
        case .tooLarge(let why): "파일이 이 서버의 한도를 넘습니다. (\(why))"
        case .corrupt: "사진을 읽을 수 없습니다: 파일이 손상되었거나 중간에 잘렸습니다."
        case .corruptVideo(let why): "동영상을 읽을 수 없습니다. (\(why))"
        case .noVideoTools: "이 서버는 동영상을 받을 수 없습니다: ffmpeg가 설치되어 있지 않습니다 (Debian 패키지 ffmpeg)."
        case .internal: "서버가 사진을 저장하지 못했습니다. 잠시 후 다시 해 주세요."
        case .unavailable: "사진 저장소에 지금 연결할 수 없습니다. 잠시 후 다시 해 주세요."
        }
    }
}
