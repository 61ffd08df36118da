import Services

/// The words of the activity record, of members' roles being changed and of the snapshots (what keeps the diary for
/// twenty years), Korean first and complete in English; the
/// templates see them in `t` beside every other word. `%@` stands for what the page puts in.
enum ActivityWord: String, CaseIterable, Sendable {
    case activity, activityIntro, activityIntroOwn, activityEmpty, everyone, everyKind, show, olderActivity, activityMonth, who
    case action_created, action_edited, action_deleted, action_restored, action_purged, action_invited, action_joined
    case action_roleChanged, action_removed, action_revoked, action_downloaded, action_signedIn
    case kind_entry, kind_photo, kind_memo, kind_comment, kind_child, kind_event, kind_anniversary, kind_measurement
    case kind_vaccination, kind_member, kind_invitation, kind_shareLink, kind_token, kind_backup, kind_device, kind_trash
    case snapshots, snapshotsOff, snapshotLastGood, snapshotNever, snapshotFailed, snapshotTo, snapshotLate, justNow, hoursAgo
    case daysAgo, reason_full, reason_passphrase, reason_unreachable, reason_permission, reason_locked, reason_missing
    case reason_damaged, reason_stopped, reason_other
    case storage, storageUse, diskSpace, diskAlmostFull
    case withResidentNumbers, imported, entriesCount, photosCount, changeRole, removeMember, removeMemberWarning, memberRemoved

    var texts: (korean: String, english: String) {
        switch self {
        case .activity: ("활동 기록", "Activity")
        case .activityIntro:
            (
                "가족이 한 일이 1년 동안 여기 남습니다. 비밀번호·토큰·주민등록번호는 남기지 않습니다.",
                "What the family did stays here for a year. Never a password, a token or a resident number."
            )
        case .activityIntroOwn: ("내가 한 일이 1년 동안 여기 남습니다.", "What you did stays here for a year.")
        case .activityEmpty: ("기록이 없습니다.", "Nothing recorded.")
        case .everyone: ("모든 사람", "Everyone")
        case .everyKind: ("모든 종류", "Every kind")
        case .show: ("보기", "Show")
        case .olderActivity: ("이전 기록", "Older")
        case .activityMonth: ("달", "Month")
        case .who: ("사람", "Member")
        case .action_created: ("만듦", "created")
        case .action_edited: ("고침", "edited")
        case .action_deleted: ("휴지통으로 옮김", "moved to the trash")
        case .action_restored: ("되살림", "restored")
        case .action_purged: ("완전히 삭제", "deleted for good")
        case .action_invited: ("초대 링크 만듦", "made an invitation")
        case .action_joined: ("가족이 됨", "joined")
        case .action_roleChanged: ("역할 바꿈", "role changed")
        case .action_removed: ("가족에서 내보냄", "removed from the family")
        case .action_revoked: ("취소함", "revoked")
        case .action_downloaded: ("내려받음", "downloaded")
        case .action_signedIn: ("새 기기에서 로그인", "signed in on a new device")
        case .kind_entry: ("일기", "Entry")
        case .kind_photo: ("사진", "Photo")
        case .kind_memo: ("메모", "Memo")
        case .kind_comment: ("댓글", "Comment")
        case .kind_child: ("아이", "Child")
        case .kind_event: ("병원·행사", "Visit or event")
        case .kind_anniversary: ("기념일", "Anniversary")
        case .kind_measurement: ("키·몸무게", "Growth measurement")
        case .kind_vaccination: ("예방접종", "Vaccination")
        case .kind_member: ("구성원", "Member")
        case .kind_invitation: ("초대", "Invitation")
        case .kind_shareLink: ("공유 링크", "Share link")
        case .kind_token: ("API 토큰", "API token")
        case .kind_backup: ("백업", "Backup")
        case .kind_device: ("기기", "Device")
        case .kind_trash: ("휴지통", "Trash")
        case .withResidentNumbers: ("주민등록번호 포함", "with resident numbers")
        case .snapshots: ("자동 백업", "Snapshots")
        case .snapshotsOff:
            (
                "자동 백업이 꺼져 있습니다. 다른 디스크나 버킷에 암호화된 백업을 자동으로 남기려면 서버를 --snapshots로 실행하세요 (docs/backup.md).",
                "Scheduled snapshots are off: run the server with --snapshots to keep encrypted snapshots on another disk or bucket (docs/backup.md)."
            )
        case .snapshotLastGood: ("마지막 백업 %@", "Last snapshot %@")
        case .snapshotNever: ("아직 성공한 백업이 없습니다", "No snapshot has succeeded yet")
        case .snapshotFailed: ("실패: %@", "failed: %@")
        case .snapshotTo: ("보관 위치: %@", "Kept at: %@")
        case .storage: ("저장 공간", "Storage")
        case .storageUse: ("사진 %@ · 동영상 %@ · 책 %@ · 최근 30일에 %@ 늘었습니다", "Photos %@ · clips %@ · books %@ · %@ added in the last 30 days")
        case .diskSpace: ("서버 디스크: %@ 남음 (%@퍼센트 사용)", "The server's disk: %@ free (%@ per cent used)")
        case .diskAlmostFull: ("서버 디스크가 %@퍼센트 찼습니다. 가득 차면 사진과 일기를 더 저장할 수 없습니다.", "The server's disk is %@ per cent full: once full, no more photos or entries can be saved.")
        case .snapshotLate: ("백업이 늦어지고 있습니다.", "Snapshots are late.")
        case .justNow: ("방금", "just now")
        case .hoursAgo: ("%@시간 전", "%@ hours ago")
        case .daysAgo: ("%@일 전", "%@ days ago")
        case .reason_full: ("대상 디스크가 가득 참", "the target is full")
        case .reason_passphrase: ("암호가 저장소와 맞지 않음", "the passphrase does not open the repository")
        case .reason_unreachable: ("대상에 연결할 수 없음", "the target cannot be reached")
        case .reason_permission: ("대상에 쓸 수 없음", "the target may not be written")
        case .reason_locked: ("다른 백업이 대상을 쓰는 중", "another backup holds the target")
        case .reason_missing: ("restic이 설치되지 않음", "restic is not installed")
        case .reason_damaged: ("대상의 백업이 손상됨", "the snapshots at the target are damaged")
        case .reason_stopped: ("백업 도중 서버가 멈춤", "the server stopped during the snapshot")
        case .reason_other: ("알 수 없는 오류", "an error")
        case .entriesCount: ("일기 %@개", "%@ entries")
        case .imported: ("파일에서 가져옴 · 일기 %@개", "imported from a file · %@ entries")
        case .photosCount: ("사진 %@장", "%@ photos")
        case .changeRole: ("역할 바꾸기", "Change role")
        case .removeMember: ("가족에서 내보내기", "Remove from the family")
        case .removeMemberWarning:
            (
                "이 사람은 더 이상 이 가족의 일기를 볼 수 없고, 이 가족에서 쓰던 API 토큰과 캘린더 구독이 끝납니다. 쓴 글과 댓글은 가족에 남습니다.",
                "They no longer see this family's diary, and their API tokens and calendar feeds of this family end. What they wrote stays with the family."
            )
        case .memberRemoved: ("%@ 님을 가족에서 내보냈습니다.", "Removed %@ from the family.")
        }
    }

    func text(_ language: Language) -> String { language == .korean ? texts.korean : texts.english }

    func text(_ language: Language, _ arguments: String...) -> String { Language.filling(text(language), arguments) }
}
