/// The words of e-mail — the settings that choose it, the unsubscribe page, and the mails themselves — Korean first
/// and complete in English. Templates read them as `{{t.key}}` beside `Word`'s (`Words.dictionary` holds both).
public enum MailWord: String, CaseIterable, Sendable {
    case mailTitle, mailHint, mailAddress, mailDigest, digest_off, digest_daily, digest_weekly, mailReminders
    case mailRemindersHint, mailLanguage, mailSaved, mailNotConfigured, mailWhatIsSent
    case unsubscribeTitle, unsubscribeQuestion, unsubscribeButton, unsubscribed, unsubscribedNote
    case digestSubjectDaily, digestSubjectWeekly, digestGreeting, digestNewEntries, digestMoreEntries, digestOpenEntry
    case digestComments, digestCommentOn, digestComingUp, digestFooterDaily, digestFooterWeekly, reminderSubject
    case reminderLead, reminderOpen, footerSettings, footerUnsubscribe, footerWhy
    case snapshotFailedSubject, snapshotFailedLead, snapshotFailedLastGood, snapshotFailedNever, snapshotFailedOpen
    case newSignInSubject, newSignInLead, newSignInNotYou, newSignInOpen, newSignInWithPassword, newSignInWithPasskey
    case newSignInWithSecondStep, codesGuessedSubject, codesGuessedLead, codesGuessedAdvice, codesGuessedOpen
    case diskAlmostFullSubject, diskAlmostFullLead, diskAlmostFullOpen

    var texts: (korean: String, english: String) {
        switch self {
        case .snapshotFailedSubject: ("[새싹] 자동 백업 실패", "[Saessak] A snapshot failed")
        case .snapshotFailedLead: ("새싹의 자동 백업이 실패했습니다: %@", "Saessak's scheduled snapshot failed: %@")
        case .snapshotFailedLastGood: ("마지막으로 성공한 백업: %@", "The last good snapshot: %@")
        case .snapshotFailedNever: ("아직 성공한 백업이 없습니다.", "No snapshot has succeeded yet.")
        case .snapshotFailedOpen: ("설정에서 보기", "See it in the settings")
        case .newSignInSubject: ("[새싹] 새 기기에서 로그인했습니다", "[Saessak] A sign-in from a new device")
        case .newSignInLead: ("%@ 님의 계정이 처음 보는 브라우저에서 로그인했습니다:", "Your account, %@, signed in from a browser it had not used before:")
        case .newSignInNotYou:
            (
                "본인이 아니라면 아래에서 그 기기를 로그아웃시키고 비밀번호를 바꾸세요.",
                "If this was not you, sign that device out below and change your password."
            )
        case .newSignInOpen: ("로그인한 기기 보기", "See the signed-in devices")
        case .codesGuessedOpen: ("비밀번호 바꾸기", "Change the password")
        case .diskAlmostFullSubject: ("[새싹] 서버 디스크가 거의 찼습니다", "[Saessak] The server's disk is almost full")
        case .diskAlmostFullLead:
            (
                "새싹 서버의 디스크가 %@퍼센트 찼습니다(남은 공간 %@). 가득 차면 사진과 일기를 더 저장할 수 없습니다. 공간을 비우거나 더 큰 디스크로 옮겨 주세요.",
                "The disk of the Saessak server is %@ per cent full (%@ free). Once it is full, no more photos or entries can be saved: free some space or move to a larger disk."
            )
        case .diskAlmostFullOpen: ("저장 공간 보기", "See the storage")
        case .codesGuessedSubject: ("[새싹] 2단계 인증 코드가 여러 번 틀렸습니다", "[Saessak] Wrong second-step codes")
        case .codesGuessedLead:
            (
                "%@ 님의 비밀번호가 맞게 입력된 뒤 2단계 인증 코드가 오늘 %@번 틀렸습니다.",
                "After the right password for your account, %@, wrong second-step codes were typed %@ times today."
            )
        case .codesGuessedAdvice:
            (
                "본인이 아니라면 누군가 비밀번호를 알고 있습니다. 지금 비밀번호를 바꾸세요. 틀릴수록 다음 시도까지 더 오래 기다려야 합니다.",
                "If this was not you, someone knows your password: change it now. Each further round of wrong codes waits twice as long."
            )
        case .newSignInWithPassword: ("비밀번호", "password")
        case .newSignInWithPasskey: ("패스키", "passkey")
        case .newSignInWithSecondStep: ("비밀번호와 2단계 인증", "password and second step")
        case .mailTitle: ("이메일 소식", "News by e-mail")
        case .mailHint:
            (
                "새 일기와 사진, 내 일기에 달린 댓글, 다가오는 날을 메일로 받아요. 이 가족에서만 적용됩니다.",
                "Get new entries and photos, comments on your entries and the days coming up by e-mail. For this family only."
            )
        case .mailAddress: ("받을 이메일 주소", "E-mail address")
        case .mailDigest: ("소식 모아 받기", "Digest")
        case .digest_off: ("받지 않음", "Off")
        case .digest_daily: ("매일 아침", "Every morning")
        case .digest_weekly: ("매주 월요일 아침", "Monday mornings")
        case .mailReminders: ("기념일 미리 알림", "Reminders")
        case .mailRemindersHint:
            (
                "백일, 돌, 생일(양력·음력), 예방접종, 기념일 3일 전에 메일을 보내요.",
                "A mail three days before 백일, 돌, birthdays (solar and lunar), vaccinations and anniversaries."
            )
        case .mailLanguage: ("메일 언어", "Language of the mails")
        case .mailSaved: ("이메일 설정을 저장했습니다.", "Your e-mail settings are saved.")
        case .mailNotConfigured:
            (
                "이 서버는 아직 메일을 보내도록 설정되지 않았습니다. 설정은 저장되고, 관리자가 메일 서버를 설정하면 보내기 시작합니다.",
                "This server is not set up to send mail yet. Your choice is kept, and mail starts once the server's mail settings are made."
            )
        case .mailWhatIsSent:
            (
                "메일에는 주민등록번호나 사진의 위치 정보가 들어가지 않습니다. 사진은 작은 미리보기로만 들어갑니다.",
                "No mail ever carries a resident registration number or where a photo was taken; photos go as small previews only."
            )
        case .unsubscribeTitle: ("메일 그만 받기", "Stop these mails")
        case .unsubscribeQuestion: ("%@ 가족의 메일을 그만 받을까요?", "Stop the mails from the %@ family?")
        case .unsubscribeButton: ("그만 받기", "Unsubscribe")
        case .unsubscribed: ("더 이상 메일을 보내지 않습니다.", "No more mail will be sent.")
        case .unsubscribedNote: ("다시 받으려면 로그인해서 설정에서 켜 주세요.", "To get them again, sign in and turn them on in Settings.")
        case .digestSubjectDaily: ("[%@] 오늘의 소식", "[%@] Today's news")
        case .digestSubjectWeekly: ("[%@] 이번 주 소식", "[%@] This week's news")
        case .digestGreeting: ("%@님, 새싹 소식이에요.", "Hello %@, here is the news from Saessak.")
        case .digestNewEntries: ("새 일기", "New entries")
        case .digestMoreEntries: ("그 밖에 일기 %@개가 더 있어요.", "%@ more entries are waiting.")
        case .digestOpenEntry: ("일기 보기", "Open the entry")
        case .digestComments: ("내 일기에 달린 댓글", "Comments on your entries")
        case .digestCommentOn: ("%@에", "on %@")
        case .digestComingUp: ("다가오는 날", "Coming up")
        case .digestFooterDaily: ("새싹에서 매일 아침 보내는 소식입니다.", "Saessak sends you this every morning.")
        case .digestFooterWeekly: ("새싹에서 매주 월요일 아침 보내는 소식입니다.", "Saessak sends you this every Monday morning.")
        case .reminderSubject: ("[%@] %@", "[%@] %@")
        case .reminderLead: ("미리 알려 드려요.", "A reminder of what is coming.")
        case .reminderOpen: ("달력에서 보기", "See it on the calendar")
        case .footerSettings: ("메일 설정 바꾸기", "Change your mail settings")
        case .footerUnsubscribe: ("이 메일 그만 받기", "Unsubscribe")
        case .footerWhy: ("%@ 가족의 구성원으로 직접 신청하셨기 때문에 받으셨습니다.", "You get this because you asked for it as a member of the %@ family.")
        }
    }

    public func text(_ language: Language) -> String { language == .korean ? texts.korean : texts.english }

    /// The text with `%@` replaced by the arguments in order.
    public func text(_ language: Language, _ arguments: String...) -> String { Language.filling(text(language), arguments) }
}
