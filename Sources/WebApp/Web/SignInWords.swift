import Services

/// The words of passkeys and the sign-in methods page (docs/security.md), Korean first and complete in English.
enum SignInWord: String, CaseIterable, Sendable {
    case signInMethods, signInMethodsIntro, passkeys, passkeysIntro, passkeyName, passkeyNameDefault, addPasskey
    case passkeyAdded, passkeyRemoved, removePasskey, passkeyAddedOn, passkeyLastUsed, passkeyNeverUsed, noPasskeys
    case signInWithPasskey, passkeyRefused, passkeyCancelled, orWithPassword, passkeyNeedsScript, passkeyAddFailed
    case secondStep, secondStepNote, codeOrRecoveryCode, wrongCode, secondStepIntro, secondStepOn, secondStepOff, turnOnSecondStep
    case turnOffSecondStep, secondStepScan, secondStepSecret, secondStepConfirm, secondStepCode, recoveryCodes, recoveryCodesNote
    case recoveryCodesLeft, newRecoveryCodes, secondStepTurnedOff, secondStepSetUp
    case devices, devicesIntro, thisBrowser, endSession, sessionEnded, unknownBrowser, sessionDetail, signedInWithPassword
    case joinWithPasskey, joinWithPasskeyButton, joinWithPasskeyHint, orJoinWithPassword, setUpWithPasskey, setUpWithPasskeyHint
    case signedInWithPasskey, signedInWithSecondStep, signInRule, signInRuleHint, signInRuleOn, signInRuleSaved, strengthenFirst

    var texts: (korean: String, english: String) {
        switch self {
        case .signInMethods: ("로그인 방법", "Ways to sign in")
        case .signInMethodsIntro:
            (
                "비밀번호 말고도 휴대폰의 지문이나 얼굴, 화면 잠금으로 로그인할 수 있습니다.",
                "Besides your password, you can sign in with your phone's fingerprint, face or screen lock."
            )
        case .passkeys: ("패스키", "Passkeys")
        case .passkeysIntro:
            (
                "패스키가 있으면 아이디와 비밀번호 없이 휴대폰의 지문이나 얼굴로 바로 로그인합니다. 패스키는 이 사이트에서만 쓰이므로 가짜 사이트에 속을 일도 없습니다.",
                "With a passkey you sign in with your phone's fingerprint or face, no username or password. A passkey works only on this site, so a fake site cannot trick it out of you."
            )
        case .passkeyName: ("패스키 이름", "Passkey name")
        case .passkeyNameDefault: ("내 휴대폰", "My phone")
        case .addPasskey: ("패스키 추가", "Add a passkey")
        case .passkeyAdded: ("패스키를 추가했습니다. 다음부터 이 기기로 바로 로그인할 수 있습니다.", "The passkey is added: next time, sign in with this device alone.")
        case .passkeyRemoved: ("패스키를 지웠습니다.", "The passkey is removed.")
        case .removePasskey: ("지우기", "Remove")
        case .passkeyAddedOn: ("%@ 추가", "added %@")
        case .passkeyLastUsed: ("마지막 사용 %@", "last used %@")
        case .passkeyNeverUsed: ("아직 쓰지 않음", "not used yet")
        case .noPasskeys: ("아직 패스키가 없습니다.", "No passkeys yet.")
        case .signInWithPasskey: ("패스키로 로그인", "Sign in with a passkey")
        case .passkeyRefused: ("패스키로 로그인하지 못했습니다. 다시 해 보거나 비밀번호로 로그인하세요.", "The passkey did not sign you in. Try again, or sign in with your password.")
        case .passkeyCancelled: ("패스키 확인이 취소되었습니다.", "The passkey check was cancelled.")
        case .orWithPassword: ("또는 아이디와 비밀번호로", "Or with your username and password")
        case .passkeyNeedsScript:
            (
                "패스키를 추가하려면 자바스크립트가 켜진 최신 브라우저가 필요합니다.",
                "Adding a passkey needs an up-to-date browser with JavaScript on."
            )
        case .passkeyAddFailed: ("패스키를 추가하지 못했습니다: %@", "The passkey could not be added: %@")
        case .secondStep: ("2단계 인증", "Second step")
        case .secondStepNote:
            ("인증 앱에 보이는 6자리 숫자를 입력하세요. 휴대폰이 없으면 복구 코드 하나를 입력하세요.", "Type the six digits your authenticator app shows. Without your phone, type one of your recovery codes.")
        case .codeOrRecoveryCode: ("인증 코드 또는 복구 코드", "Code or recovery code")
        case .wrongCode: ("코드가 맞지 않거나 이미 쓴 코드입니다.", "The code is wrong, or was used already.")
        case .secondStepIntro:
            (
                "비밀번호로 로그인할 때 휴대폰의 인증 앱(Google Authenticator, Microsoft Authenticator 등)에 보이는 숫자를 한 번 더 묻습니다. 비밀번호가 새어 나가도 휴대폰 없이는 들어올 수 없습니다.",
                "When you sign in with your password, you are also asked for the number your phone's authenticator app (Google Authenticator, Microsoft Authenticator …) shows. A leaked password alone then gets nobody in."
            )
        case .secondStepOn: ("켜져 있습니다.", "On.")
        case .secondStepOff: ("꺼져 있습니다.", "Off.")
        case .turnOnSecondStep: ("2단계 인증 켜기", "Turn on the second step")
        case .turnOffSecondStep: ("2단계 인증 끄기", "Turn off the second step")
        case .secondStepScan: ("인증 앱으로 이 QR 코드를 찍으세요.", "Scan this QR code with your authenticator app.")
        case .secondStepSecret: ("찍을 수 없으면 이 키를 직접 입력하세요", "If you cannot scan it, type this key")
        case .secondStepConfirm: ("확인하고 켜기", "Check and turn on")
        case .secondStepCode: ("앱에 보이는 6자리 숫자", "The six digits the app shows")
        case .recoveryCodes: ("복구 코드", "Recovery codes")
        case .recoveryCodesNote:
            (
                "휴대폰을 잃어버렸을 때 쓰는 코드입니다. 각각 한 번만 쓸 수 있고, 지금 한 번만 보여 드립니다. 인쇄하거나 안전한 곳에 적어 두세요.",
                "These codes are for when your phone is lost. Each works once, and they are shown only now: print them or write them down somewhere safe."
            )
        case .recoveryCodesLeft: ("남은 복구 코드 %@개", "%@ recovery codes left")
        case .newRecoveryCodes: ("복구 코드 새로 만들기", "Make new recovery codes")
        case .secondStepTurnedOff: ("2단계 인증을 껐습니다.", "The second step is off.")
        case .secondStepSetUp: ("2단계 인증을 켰습니다.", "The second step is on.")
        case .devices: ("로그인한 기기", "Signed-in devices")
        case .devicesIntro:
            ("모르는 기기가 있으면 로그아웃시키고 비밀번호를 바꾸세요.", "If you see a device you do not know, sign it out and change your password.")
        case .thisBrowser: ("지금 이 브라우저", "This browser")
        case .endSession: ("로그아웃시키기", "Sign out")
        case .sessionEnded: ("그 기기를 로그아웃시켰습니다.", "That device is signed out.")
        case .unknownBrowser: ("알 수 없는 브라우저", "Unknown browser")
        case .sessionDetail: ("%@ · 처음 %@ · 마지막 %@", "%@ · first %@ · last %@")
        case .signedInWithPassword: ("비밀번호로 로그인", "signed in with a password")
        case .signedInWithPasskey: ("패스키로 로그인", "signed in with a passkey")
        case .signedInWithSecondStep: ("비밀번호와 2단계 인증으로 로그인", "signed in with a password and the second step")
        case .joinWithPasskey: ("패스키로 가입", "Join with a passkey")
        case .joinWithPasskeyButton: ("이 기기의 패스키로 가입", "Join with this device's passkey")
        case .joinWithPasskeyHint:
            (
                "아이디만 정하면 비밀번호 없이 휴대폰의 지문이나 얼굴로 가입하고 로그인합니다.",
                "Choose a username, then join and sign in with your phone's fingerprint or face: no password."
            )
        case .orJoinWithPassword: ("또는 비밀번호를 정해서 가입", "Or join with a password")
        case .setUpWithPasskey: ("패스키로 시작", "Start with a passkey")
        case .setUpWithPasskeyHint:
            (
                "아이디와 가족 이름을 정하면 비밀번호 없이 이 기기의 지문이나 얼굴로 로그인합니다. 이 주소를 서버의 이름(도메인이나 localhost)으로 열었을 때만 쓸 수 있습니다.",
                "Choose a username and the family's name, then sign in with this device's fingerprint or face: no password. It works when this page is opened by the server's name (a domain, or localhost)."
            )
        case .signInRule: ("로그인 보안 규칙", "Sign-in rule")
        case .signInRuleHint:
            (
                "켜면 이 가족의 관리자와 편집자는 패스키나 2단계 인증으로 로그인해야 가족의 일기를 볼 수 있습니다. 보기만 하는 가족(조부모 등)은 그대로입니다. 먼저 내가 패스키나 2단계 인증으로 로그인해 있어야 켤 수 있습니다.",
                "When on, the family's owners and editors must sign in with a passkey or the second step to reach the diary. Members who only look (grandparents) are not affected. You must be signed in with a passkey or the second step yourself to turn it on."
            )
        case .signInRuleOn: ("관리자와 편집자는 패스키나 2단계 인증 필요", "Owners and editors need a passkey or the second step")
        case .signInRuleSaved: ("로그인 보안 규칙을 저장했습니다.", "The sign-in rule is saved.")
        case .strengthenFirst:
            (
                "이 가족은 관리자와 편집자에게 패스키나 2단계 인증을 요구합니다. 아래에서 하나를 추가한 뒤 그것으로 다시 로그인하세요.",
                "This family asks its owners and editors for a passkey or the second step. Add one below, then sign in again with it."
            )
        }
    }

    func text(_ language: Language) -> String { language == .korean ? texts.korean : texts.english }

    /// The text with `%@` replaced by the arguments in order.
    func text(_ language: Language, _ arguments: String...) -> String { Language.filling(text(language), arguments) }
}
