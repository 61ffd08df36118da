import Services

/// The words of the trash and of entries' earlier versions (what keeps a mistake from losing anything), Korean first
/// and complete in English; kept apart from `Word`, whose table is long enough. The templates see them in `t` beside
/// every other word. `%@` stands for what the page puts in.
enum TrashWord: String, CaseIterable, Sendable {
    case trash, trashIntro, trashEmpty, trashKeeps, trashDaysSaved, movedToTrash, undo, restore, restoreWithEntry
    case purge, emptyTrash, emptyTrashWarning, deletedByOn, daysLeft, lastDay, restored, restoredLeftOut
    case restoredShareLinks, trashKind_entry, trashKind_photo, trashKind_memo, trashKind_comment, trashKind_child
    case trashKind_event, trashKind_anniversary, trashKind_measurement, trashKind_vaccination, keepDays, days, restoreWithChild
    case confirmTrash, editedTimes, versions, versionNumber, savedByOn, compareWithNow, versionThen, versionNow, changed
    case purgeVersion, purgedVersion, restoreVersion, restoredVersion, noVersions, photoCount, versionsIntro, field

    var texts: (korean: String, english: String) {
        switch self {
        case .trash: ("휴지통", "Trash")
        case .trashIntro:
            (
                "지운 것은 여기 있다가 %@일이 지나면 완전히 지워집니다. 되살리면 댓글·하트·사진 순서까지 그대로 돌아옵니다.",
                "What is deleted stays here, and is deleted for good after %@ days. A restore brings back its comments, hearts and photo order too."
            )
        case .trashEmpty: ("휴지통이 비어 있습니다.", "The trash is empty.")
        case .trashKeeps: ("휴지통 보관 기간", "Keep deleted things")
        case .trashDaysSaved: ("휴지통 보관 기간을 저장했습니다.", "Saved how long the trash keeps things.")
        case .movedToTrash: ("‘%@’을(를) 휴지통으로 옮겼습니다.", "Moved ‘%@’ to the trash.")
        case .undo: ("실행 취소", "Undo")
        case .restore: ("되살리기", "Restore")
        case .restoreWithEntry: ("일기와 함께 되살리기", "Restore with its entry")
        case .purge: ("완전히 삭제", "Delete for good")
        case .emptyTrash: ("휴지통 비우기", "Empty the trash")
        case .emptyTrashWarning: ("휴지통의 모든 것이 완전히 지워집니다.", "Everything in the trash is deleted for good.")
        case .deletedByOn: ("%@ · %@에 삭제", "Deleted by %@ · %@")
        case .daysLeft: ("%@일 남음", "%@ days left")
        case .lastDay: ("오늘까지", "Last day")
        case .restored: ("‘%@’을(를) 되살렸습니다.", "Restored ‘%@’.")
        case .restoredLeftOut:
            ("그사이 완전히 지워진 것 %@개는 빼고 되살렸습니다.", "Left out %@ things that were deleted for good meanwhile.")
        case .restoredShareLinks:
            ("공유 링크에는 다시 나타나지 않습니다. 필요하면 새 링크를 만드세요.", "It does not show in share links again: make a new link if you need one.")
        case .trashKind_entry: ("일기", "Entries")
        case .trashKind_photo: ("사진", "Photos")
        case .trashKind_memo: ("메모", "Memos")
        case .trashKind_comment: ("댓글", "Comments")
        case .trashKind_child: ("아이", "Children")
        case .trashKind_event: ("병원·행사", "Visits and events")
        case .trashKind_anniversary: ("기념일", "Anniversaries")
        case .trashKind_measurement: ("키·몸무게 기록", "Growth measurements")
        case .trashKind_vaccination: ("예방접종 기록", "Recorded vaccinations")
        case .restoreWithChild: ("아이와 함께 되살리기", "Restore with the child")
        case .editedTimes: ("수정됨 · %@번", "Edited · %@ times")
        case .versions: ("이전 판", "Earlier versions")
        case .versionNumber: ("%@번째 판", "Version %@")
        case .savedByOn: ("%@ · %@ 저장", "Saved by %@ · %@")
        case .compareWithNow: ("지금과 비교", "Compare with now")
        case .versionThen: ("그때", "Then")
        case .versionNow: ("지금", "Now")
        case .changed: ("바뀜", "Changed")
        case .restoreVersion: ("이 판으로 되돌리기", "Restore this version")
        case .purgeVersion: ("이 판을 영구히 지우기", "Delete this version for good")
        case .purgedVersion: ("%@번째 판을 영구히 지웠습니다.", "Version %@ is deleted for good.")
        case .restoredVersion:
            ("%@번째 판으로 되돌렸습니다. 바로 전 내용도 이전 판으로 남아 있습니다.", "Restored version %@. What it replaced is kept as a version too.")
        case .noVersions: ("고친 적이 없습니다.", "Never edited.")
        case .photoCount: ("사진 %@장", "%@ photos")
        case .versionsIntro:
            (
                "고칠 때마다 바로 전 내용이 여기 남습니다 (최근 50개, 1년 안의 것은 모두).",
                "Each edit keeps what it replaced here (the last 50, and every one from the past year)."
            )
        case .field: ("항목", "Field")
        case .confirmTrash:
            (
                "휴지통으로 옮길까요? 휴지통이 보관하는 동안에는 모두 함께 되살릴 수 있습니다:",
                "Move to the trash? While the trash keeps it, all of it can be restored together:"
            )
        case .keepDays: ("보관 일수 (7–365)", "Days to keep (7–365)")
        case .days: ("일", "days")
        }
    }

    func text(_ language: Language) -> String { language == .korean ? texts.korean : texts.english }

    /// The text with `%@` replaced by the arguments in order.
    func text(_ language: Language, _ arguments: String...) -> String { Language.filling(text(language), arguments) }
}
