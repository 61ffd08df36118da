import Hummingbird
import KoreanCalendar

/// The language of a page: Korean first, English when asked (`?lang=`, remembered in the `saessak_lang` cookie) or
/// when the browser prefers it (`Accept-Language`).
enum Language: String, Sendable {
    case korean = "ko"
    case english = "en"

    static let cookie = "saessak_lang"

    init(_ request: Request) {
        if let asked = request.uri.queryParameters["lang"].flatMap({ Language(rawValue: String($0)) }) {
            self = asked
            return
        }
        if let chosen = request.cookies[Self.cookie].flatMap({ Language(rawValue: $0.value) }) {
            self = chosen
            return
        }
        // The first of ko/en the browser lists wins; anything else is Korean.
        let preferences = (request.headers[.acceptLanguage] ?? "").lowercased().split(separator: ",")
        for preference in preferences {
            let tag = preference.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            if tag.hasPrefix("ko") { self = .korean; return }
            if tag.hasPrefix("en") { self = .english; return }
        }
        self = .korean
    }
}

extension Language {
    /// A date as people write it: 2026년 11월 22일 일요일, or Sunday, 22 November 2026.
    func longDate(_ date: SolarDate) -> String {
        switch self {
        case .korean:
            return "\(date.year)년 \(date.month)월 \(date.day)일 \(["일", "월", "화", "수", "목", "금", "토"][date.weekday])요일"
        case .english:
            let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
            let months = [
                "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                "November", "December",
            ]
            return "\(weekdays[date.weekday]), \(date.day) \(months[date.month - 1]) \(date.year)"
        }
    }
}

/// The words of the pages built in Swift (sign-in, setup, password, invitations, share links, errors), in both
/// languages; the templated pages' words are in `Words`.
enum Phrase: CaseIterable {
    case appName, signIn, username, password, wrongPassword, tooManyAttempts, family
    case changePassword, currentPassword, newPassword, setUp, setUpIntro
    case familyName, create, passwordTooShort, sharedDiary, linkGone, joinFamily, joinAs, join, orSignIn
    case usernameUnavailable, tryLater
    case errorNotFound, errorForbidden, errorInput, errorServer

    func text(_ language: Language) -> String {
        switch language {
        case .korean: korean
        case .english: english
        }
    }

    private var korean: String {
        switch self {
        case .appName: "새싹"
        case .signIn: "로그인"
        case .username: "아이디"
        case .password: "비밀번호"
        case .wrongPassword: "아이디 또는 비밀번호가 올바르지 않습니다."
        case .tooManyAttempts: "로그인 시도가 너무 많습니다. 잠시 후 다시 시도해 주세요."
        case .family: "가족"
        case .changePassword: "비밀번호 변경"
        case .currentPassword: "현재 비밀번호"
        case .newPassword: "새 비밀번호 (8자 이상)"
        case .setUp: "새싹 시작하기"
        case .setUpIntro: "이 서버의 첫 사용자이자 가족의 관리자(owner)를 만듭니다."
        case .familyName: "가족 이름"
        case .create: "만들기"
        case .passwordTooShort: "비밀번호는 8자 이상 72바이트 이하여야 합니다."
        case .sharedDiary: "공유된 일기"
        case .linkGone: "이 링크는 만료되었거나 더 이상 쓸 수 없습니다."
        case .joinFamily: "가족 초대"
        case .joinAs: "역할"
        case .join: "참여하기"
        case .orSignIn: "이미 계정이 있으면 먼저 로그인하세요."
        case .usernameUnavailable: "이 사용자 이름은 쓸 수 없습니다. 다른 이름을 고르거나, 이미 계정이 있으면 먼저 로그인하세요."
        case .tryLater: "시도가 너무 많습니다. 잠시 후 다시 시도해 주세요."
        case .errorNotFound: "찾을 수 없습니다"
        case .errorForbidden: "권한이 없습니다"
        case .errorInput: "입력한 내용을 확인해 주세요"
        case .errorServer: "문제가 생겼습니다. 잠시 후 다시 시도해 주세요"
        }
    }

    private var english: String {
        switch self {
        case .appName: "Saessak"
        case .signIn: "Sign in"
        case .username: "Username"
        case .password: "Password"
        case .wrongPassword: "Wrong username or password."
        case .tooManyAttempts: "Too many sign-in attempts. Please wait a moment and try again."
        case .family: "Family"
        case .changePassword: "Change password"
        case .currentPassword: "Current password"
        case .newPassword: "New password (8 characters or more)"
        case .setUp: "Set up Saessak"
        case .setUpIntro: "Create the first user of this server, the owner of your family."
        case .familyName: "Family name"
        case .create: "Create"
        case .passwordTooShort: "A password needs 8 characters or more and at most 72 bytes."
        case .sharedDiary: "Shared diary"
        case .linkGone: "This link has expired or can no longer be used."
        case .joinFamily: "Family invitation"
        case .joinAs: "Role"
        case .join: "Join"
        case .orSignIn: "If you already have an account, sign in first."
        case .usernameUnavailable: "This username cannot be used: choose another, or sign in first if you have an account."
        case .tryLater: "Too many attempts. Please wait a moment and try again."
        case .errorNotFound: "Not found"
        case .errorForbidden: "Not allowed"
        case .errorInput: "Please check what you entered"
        case .errorServer: "Something went wrong. Please try again in a moment"
        }
    }
}

extension Language {
    private static let englishMonths = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]

    /// A month's heading: 2026년 11월, or November 2026.
    func monthTitle(year: Int, month: Int) -> String {
        self == .korean ? "\(year)년 \(month)월" : "\(Self.englishMonths[month - 1]) \(year)"
    }

    /// A short date: 11월 22일 (일), or Sun 22 Nov.
    func shortDate(_ date: SolarDate) -> String {
        switch self {
        case .korean: "\(date.month)월 \(date.day)일 (\(["일", "월", "화", "수", "목", "금", "토"][date.weekday]))"
        case .english:
            "\(["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][date.weekday]) \(date.day) \(Self.englishMonths[date.month - 1].prefix(3))"
        }
    }

    /// A lunar date: 음력 10월 4일 (윤달: 음력 윤6월 4일), or lunar 10/4 (leap 6/4).
    func lunarDate(_ date: LunarDate, withYear: Bool = false) -> String {
        switch self {
        case .korean: "음력 \(withYear ? "\(date.year)년 " : "")\(date.isLeapMonth ? "윤" : "")\(date.month)월 \(date.day)일"
        case .english: "lunar \(withYear ? "\(date.year)/" : "")\(date.isLeapMonth ? "leap " : "")\(date.month)/\(date.day)"
        }
    }

    /// A time of day: 오후 3:05, or 3:05 pm.
    func time(_ time: ClockTime) -> String {
        let hour12 = time.hour % 12 == 0 ? 12 : time.hour % 12
        let minute = time.minute < 10 ? "0\(time.minute)" : "\(time.minute)"
        return self == .korean ? "\(time.hour < 12 ? "오전" : "오후") \(hour12):\(minute)" : "\(hour12):\(minute) \(time.hour < 12 ? "am" : "pm")"
    }

    /// How far a day is: 오늘, 내일, D-3; or today, tomorrow, in 3 days.
    func daysAway(_ days: Int) -> String {
        switch (self, days) {
        case (.korean, 0): "오늘"
        case (.korean, 1): "내일"
        case (.korean, _): "D-\(days)"
        case (.english, 0): "today"
        case (.english, 1): "tomorrow"
        case (.english, _): "in \(days) days"
        }
    }
}
