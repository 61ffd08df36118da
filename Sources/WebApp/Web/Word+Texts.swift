// Every word's Korean and English, grouped as the pages use them; `Word` lists the words.

extension Word {
    var texts: (korean: String, english: String) {
        switch self {
        case .appName: ("새싹", "Saessak")
        case .skipToContent: ("본문으로 건너뛰기", "Skip to content")
        case .mainMenu: ("주 메뉴", "Main menu")
        case .home: ("홈", "Home")
        case .timeline: ("타임라인", "Timeline")
        case .write: ("쓰기", "Write")
        case .calendar: ("달력", "Calendar")
        case .more: ("더보기", "More")
        case .search: ("검색", "Search")
        case .searchPlaceholder: ("일기·메모 검색", "Search entries and memos")
        case .settings: ("설정", "Settings")
        case .edit: ("수정", "Edit")
        case .delete: ("삭제", "Delete")
        case .save: ("저장", "Save")
        case .cancel: ("취소", "Cancel")
        case .create: ("만들기", "Create")
        case .add: ("추가", "Add")
        case .go: ("이동", "Go")
        case .all: ("전체", "All")
        case .none: ("없음", "None")
        case .apply: ("적용", "Apply")
        case .clear: ("지우기", "Clear")
        case .older: ("이전 일기 더 보기", "Older entries")
        case .confirmDelete: ("정말 삭제할까요? 되돌릴 수 없습니다:", "Delete for good? This cannot be undone:")

        // Home
        case .noFamily: ("아직 속한 가족이 없습니다. 초대 링크를 받아 주세요.", "You are not in a family yet. Ask for an invitation link.")
        case .children: ("아이들", "Children")
        case .child: ("아이", "Child")
        case .birthday: ("생일", "Birthday")
        case .noChildrenYet: ("아직 등록한 아이가 없습니다.", "No children yet.")
        case .addChild: ("아이 추가", "Add a child")
        case .writeToday: ("오늘 일기 쓰기", "Write today's entry")
        case .comingUp: ("다가오는 날", "Coming up")
        case .nothingComingUp: ("이번 주에는 챙길 날이 없습니다.", "Nothing to remember this week.")
        case .onThisDay: ("예전 오늘", "On this day")
        case .nothingOnThisDay: ("예전 이날의 일기가 없습니다.", "No entries from this day in earlier years.")

        // Timeline and entries
        case .filters: ("거르기", "Filters")
        case .tag: ("태그", "Tag")
        case .tags: ("태그 (쉼표로 구분)", "Tags (separated by commas)")
        case .tagsExample: ("예: 첫걸음, 공원", "e.g. first steps, park")
        case .year: ("연도", "Year")
        case .yearMonth: ("연월", "Month")
        case .month: ("월", "Month")
        case .day: ("일", "Day")
        case .searchResults: ("검색 결과", "Search results")
        case .noResults: ("찾는 내용이 없습니다.", "Nothing found.")
        case .noEntries: ("아직 일기가 없습니다.", "No entries yet.")
        case .memo: ("메모", "Memo")
        case .entries: ("일기", "Entries")
        case .photos: ("사진", "Photos")
        case .photo: ("사진", "Photo")
        case .video: ("동영상", "Video")
        case .videoPreparing: ("웹에서 볼 수 있게 만드는 중", "Preparing the video for the web")
        case .videoFailed:
            ("이 동영상은 웹에서 볼 수 있게 바꾸지 못했습니다.", "This video could not be converted for the web.")
        case .downloadOriginal: ("원본 내려받기", "Download the original")
        case .offline: ("오프라인", "Offline")
        case .whatsNew: ("새 소식", "What's new")
        case .newBadge: ("새 글", "New")
        case .markAllRead: ("모두 읽음으로 표시", "Mark all as read")
        case .album: ("앨범", "Album")
        case .noPhotosThisMonth: ("이 달에는 사진이 없습니다.", "No photos this month.")
        case .heart: ("좋아요", "Heart")
        case .hearts: ("좋아요", "Hearts")
        case .heartedBy: ("좋아요를 누른 사람", "Hearted by")
        case .comments: ("댓글", "Comments")
        case .comment: ("댓글", "Comment")
        case .writeComment: ("댓글 쓰기", "Write a comment")
        case .postComment: ("남기기", "Post")
        case .editComment: ("댓글 고치기", "Edit the comment")
        case .formerMember: ("예전 가족", "A former member")
        case .edited: ("고침", "edited")
        case .entryChanged:
            (
                "그 사이에 다른 곳에서 이 일기가 바뀌었습니다. 지금 저장하면 그 내용을 덮어씁니다: 새 내용을 보려면 취소를 누르세요.",
                "This entry was changed elsewhere meanwhile. Saving now replaces that version: press Cancel to see it."
            )
        case .offlineNote:
            ("인터넷에 연결되어 있지 않아 이 기기에 저장해 둔 페이지를 보여 드립니다.", "You are offline: this is the copy kept on this device.")
        case .offlinePage:
            (
                "지금은 인터넷에 연결되어 있지 않고, 이 페이지는 이 기기에 저장되어 있지 않습니다. 최근에 본 페이지는 열 수 있습니다.",
                "You are offline, and this page is not kept on this device. Pages you viewed recently still open."
            )
        case .swipeHint: ("사진: 옆으로 밀거나 화살표 키로 넘겨 보세요", "Photos: swipe or use the arrow keys")
        case .previousPhoto: ("이전 사진", "Previous photo")
        case .nextPhoto: ("다음 사진", "Next photo")
        case .showPhoto: ("사진 보기", "Show photo")
        case .newEntry: ("새 일기", "New entry")
        case .editEntry: ("일기 수정", "Edit entry")
        case .deleteEntry: ("일기 삭제", "Delete entry")
        case .deleteEntryWarning: ("일기와 그 사진이 모두 지워집니다.", "The entry and its photos are deleted.")
        case .entryTitle: ("제목", "Title")
        case .entryBody: ("내용", "Text")
        case .dateTime: ("날짜와 시각", "Date and time")
        case .weather: ("날씨", "Weather")
        case .weatherExample: ("예: 맑음, 18℃", "e.g. sunny, 18°C")
        case .place: ("장소", "Place")
        case .keep: ("남기기", "Keep")
        case .addPhotos: ("사진·동영상 추가 (여러 개 가능)", "Add photos and videos (several at once)")
        case .photosHint:
            (
                "첫 사진(또는 동영상)에 찍은 날짜가 있으면 날짜가 그 날로 바뀝니다. 순서는 ↑↓로 바꿉니다.",
                "If the first photo (or video) knows when it was taken, the date follows it. Reorder with ↑↓."
            )
        case .moveUp: ("앞으로", "Move up")
        case .moveDown: ("뒤로", "Move down")
        case .remove: ("빼기", "Remove")
        case .uploading: ("올리는 중", "Uploading")
        case .uploadFailed: ("올리지 못했습니다", "Upload failed")

        // Calendar
        case .previousYear: ("이전 해", "Previous year")
        case .nextYear: ("다음 해", "Next year")
        case .previousMonth: ("이전 달", "Previous month")
        case .nextMonth: ("다음 달", "Next month")
        case .previousDay: ("전날", "Previous day")
        case .nextDay: ("다음 날", "Next day")
        case .thisMonth: ("이번 달", "This month")
        case .jumpToMonth: ("달 이동", "Go to month")
        case .lunarDate: ("음력", "Lunar date")
        case .ganji: ("간지", "Sexagenary (ganji)")
        case .solarTerm: ("절기", "Solar term")
        case .holiday: ("공휴일", "Public holiday")
        case .familyDays: ("가족의 날", "Family days")
        case .events: ("병원·행사", "Visits and events")
        case .noEntriesThisDay: ("이날의 일기가 없습니다.", "No entries on this day.")

        // Children
        case .editChild: ("아이 정보 수정", "Edit child")
        case .deleteChild: ("아이 삭제", "Delete child")
        case .name: ("이름", "Name")
        case .nickname: ("별명 (태명)", "Nickname")
        case .birthDate: ("생일", "Birth date")
        case .dateYMD: ("날짜 (YYYY-MM-DD)", "Date (YYYY-MM-DD)")
        case .birthDateHint:
            (
                "음력이면 음력 날짜 그대로 적습니다. 예: 음력 1월 30일 → 2025-01-30",
                "For a lunar birth date, write the lunar date as it is, e.g. lunar 1/30 → 2025-01-30"
            )
        case .solar: ("양력", "Solar")
        case .lunar: ("음력", "Lunar")
        case .leapMonth: ("윤달", "Leap month")
        case .birthTime: ("태어난 시각", "Time of birth")
        case .sex: ("성별", "Sex")
        case .notSaying: ("선택 안 함", "Not given")
        case .girl: ("여자아이", "Girl")
        case .boy: ("남자아이", "Boy")
        case .birthplace: ("태어난 곳", "Birthplace")
        case .hospital: ("병원", "Hospital")
        case .residentNumber: ("주민등록번호", "Resident registration number")
        case .residentNumberHint:
            (
                "암호화해 저장하고 가려서 보여 줍니다. 그대로 두면 바뀌지 않습니다.",
                "Stored encrypted and shown masked. Leave it as it is to keep it."
            )
        case .profilePhoto: ("프로필 사진", "Profile photo")
        case .choosePhoto: ("사진 고르기", "Choose a photo")
        case .squareCropHint: ("가운데를 정사각형으로 잘라 보여 줍니다.", "Shown cropped to a square around the centre.")

        // More, memos, anniversaries, calculator
        case .health: ("병원·건강", "Health")
        case .anniversaries: ("기념일", "Anniversaries")
        case .memos: ("메모", "Memos")
        case .calculator: ("계산기", "Calculator")
        case .result: ("계산 결과", "Result")
        case .back: ("목록", "Back")
        case .searchMemos: ("메모 검색", "Search memos")
        case .newMemo: ("새 메모", "New memo")
        case .deleteMemo: ("메모 삭제", "Delete memo")
        case .noMemos: ("아직 메모가 없습니다.", "No memos yet.")
        case .newAnniversary: ("기념일 추가", "Add an anniversary")
        case .editAnniversary: ("기념일 수정", "Edit anniversary")
        case .deleteAnniversary: ("기념일 삭제", "Delete anniversary")
        case .noAnniversaries: ("아직 기념일이 없습니다.", "No anniversaries yet.")
        case .anniversaryName: ("기념일 이름", "Name")
        case .date: ("날짜", "Date")
        case .next: ("다음", "Next")
        case .redDay: ("빨간 날", "Red day")
        case .showAsRedDay: ("달력에 공휴일처럼 빨간 날로 표시", "Show it red on the calendar, like a holiday")
        case .forChild: ("아이 (선택)", "Child (optional)")

        // Settings
        case .account: ("계정", "Account")
        case .signedInAs: ("로그인한 사용자", "Signed in as")
        case .family: ("가족", "Family")
        case .switchFamily: ("가족 바꾸기", "Switch family")
        case .changePassword: ("비밀번호 변경", "Change password")
        case .passwordChanged:
            (
                "비밀번호를 바꿨습니다. 다른 기기에서는 로그아웃되었습니다.",
                "Your password was changed. Other devices were signed out."
            )
        case .signOut: ("로그아웃", "Sign out")
        case .signOutEverywhere: ("모든 기기에서 로그아웃", "Sign out everywhere")
        case .signOutEverywhereHint:
            (
                "이 브라우저와 다른 기기, API 토큰, 내가 만든 달력 구독 주소와 아직 쓰이지 않은 초대까지 모두 끊깁니다. 휴대폰을 잃어버렸을 때 쓰세요.",
                "Ends every session, this one included, and revokes every API token, calendar feed and unused invitation of yours: for a lost phone."
            )
        case .myShareLinks:
            ("내가 만든 공유 링크 중 아직 열려 있는 것: %d개 (로그인 없이 일기를 보여 줍니다)",
             "Share links you made that are still open: %d (they show entries without signing in)")
        case .revokeMyShareLinks: ("내가 만든 공유 링크 모두 해제", "Revoke every share link I made")
        case .myShareLinksRevoked: ("내가 만든 공유 링크를 모두 해제했습니다.", "Every share link you made was revoked.")
        case .language: ("언어", "Language")
        case .members: ("가족 구성원", "Family members")
        case .invitations: ("초대", "Invitations")
        case .invite: ("초대 링크 만들기", "Make an invitation link")
        case .role: ("역할", "Role")
        case .myRole: ("내 역할과 같게", "Same as mine")
        case .role_owner: ("관리자", "owner")
        case .role_editor: ("작성자", "editor")
        case .role_viewer: ("보기만", "viewer")
        case .validDays: ("유효 기간 (일)", "Valid for (days)")
        case .until: ("만료", "until")
        case .revoke: ("취소", "Revoke")
        case .noneYet: ("아직 없습니다.", "None yet.")
        case .shareLinks: ("공유 링크", "Share links")
        case .shareLink: ("공유 링크", "Share link")
        case .shareLinksHint:
            (
                "일기 화면에서 만들 수 있습니다. 링크를 가진 사람은 로그인 없이 그 일기만 봅니다.",
                "Make them from an entry's page. Whoever has the link sees those entries only, without signing in."
            )
        case .shareThisEntry: ("이 일기 공유하기", "Share this entry")
        case .makeShareLink: ("공유 링크 만들기", "Make a share link")
        case .calendarFeeds: ("캘린더 구독", "Calendar subscriptions")
        case .calendarFeed: ("캘린더 구독", "Calendar subscription")
        case .calendarFeedsHint:
            (
                "휴대폰 캘린더에 생일·기념일·예방접종을 구독합니다.",
                "Subscribe a phone calendar to birthdays, anniversaries and vaccinations."
            )
        case .label: ("이름표", "Label")
        case .includeHolidays: ("공휴일도 포함", "Include public holidays")
        case .apiTokens: ("API 토큰", "API tokens")
        case .tokenName: ("토큰 이름 (예: 거실 액자)", "Token name (e.g. living-room frame)")
        case .newTokenOnce:
            (
                "새 토큰입니다. 지금만 보입니다. 안전한 곳에 복사해 두세요:",
                "Your new token, shown only now. Copy it somewhere safe:"
            )
        case .newInvitationOnce:
            (
                "초대 링크입니다. 지금만 보입니다. 초대할 사람에게 보내세요:",
                "The invitation link, shown only now. Send it to the person you invite:"
            )
        case .newShareLinkOnce: ("공유 링크입니다. 지금만 보입니다:", "The share link, shown only now:")
        case .newFeedOnce:
            (
                "구독 주소입니다. 지금만 보입니다. 캘린더 앱에 붙여 넣으세요:",
                "The subscription address, shown only now. Paste it into your calendar app:"
            )
        case .backup: ("백업", "Backup")
        case .backupHint:
            (
                "모든 일기와 원본 사진을 ZIP 파일 하나로 내려받습니다. 'saessak restore'로 새 서버에 되살릴 수 있습니다.",
                "Download every entry and original photo as one ZIP file; 'saessak restore' brings it back on a new server."
            )
        case .includeResidentNumber:
            (
                "주민등록번호 포함 (파일에 그대로 들어갑니다)",
                "Include the resident registration number (as plain text in the file)"
            )
        case .downloadBackup: ("백업 내려받기", "Download a backup")
        case .importTitle: ("가져오기", "Import")
        case .importHint:
            (
                "다른 곳에 쓰던 일기를 가져옵니다. 먼저 미리 보기로 무엇이 들어올지 확인하고, 확인을 눌러야 저장됩니다. 같은 파일을 다시 가져와도 두 번 들어가지 않습니다.",
                "Bring in a diary kept elsewhere. A preview shows what would come in; nothing is saved until you confirm. Importing the same file again adds nothing twice."
            )
        case .import_text:
            (
                "텍스트 일기 (.txt 또는 .txt를 묶은 .zip: UTF-8, UTF-16, CP949)",
                "Text diary (.txt, or a .zip of them: UTF-8, UTF-16, CP949)"
            )
        case .import_iphotodiary: ("아이포토다이어리 (NewIPhotoDiary.sqlite)", "iPhotoDiary app (NewIPhotoDiary.sqlite)")
        case .import_dayone: ("Day One 내보내기 (.zip)", "Day One export (.zip)")
        case .importSource: ("가져올 곳", "Import from")
        case .importFile: ("파일", "File")
        case .importPlist:
            (
                "기념일 파일 AnnData.plist (아이포토다이어리, 선택)",
                "Anniversaries file AnnData.plist (iPhotoDiary, optional)"
            )
        case .importChildrenHint:
            (
                "텍스트, Day One, 사진의 일기가 누구의 이야기인지 고르세요. 고르지 않으면 모든 아이의 일기가 됩니다.",
                "Choose whom text, Day One and photo entries are about; with none chosen they are about every child."
            )
        case .importEncoding: ("텍스트 인코딩", "Text encoding")
        case .importPreviewButton: ("미리 보기", "Preview")
        case .importPreview: ("가져오기 미리 보기", "Import preview")
        case .importPreviewNote:
            (
                "아직 아무것도 저장하지 않았습니다. 아래 내용이 맞으면 가져오기를 누르세요.",
                "Nothing has been saved yet. If this looks right, press Import."
            )
        case .importConfirm: ("가져오기", "Import")
        case .importDone: ("가져오기 완료", "Import finished")
        case .importDoneNote: ("가져왔습니다.", "Imported.")
        case .importChooseKind: ("가져올 곳을 고르세요.", "Choose what to import from.")
        case .importChooseFile: ("파일을 고르세요.", "Choose a file.")
        case .importNeedsChild: ("먼저 아이를 등록하세요. 일기는 아이에 대한 이야기입니다.", "Add a child first: entries are about a child.")
        case .importWhat: ("종류", "Kind")
        case .importFound: ("파일에 있음", "In the file")
        case .importAdded: ("새로 들어옴", "New")
        case .importDuplicates: ("이미 있음", "Already here")
        case .importSkipped: ("건너뛴 것", "Left out")
        case .importWarnings: ("확인할 것", "Worth a look")
        case .importKind_children: ("아이", "Children")
        case .importKind_entries: ("일기", "Entries")
        case .importKind_events: ("일정", "Events")
        case .importKind_anniversaries: ("기념일", "Anniversaries")
        case .importKind_photos: ("사진", "Photos")
        case .importKind_measurements: ("성장 기록", "Measurements")

        // Health
        case .event_hospital: ("병원 진료", "hospital visit")
        case .event_milestone: ("성장 기록", "milestone")
        case .event_other: ("기타", "other")
        case .vaccinations: ("예방접종", "Vaccinations")
        case .vaccineOverdue: ("늦어진 접종", "Overdue")
        case .vaccineDue: ("지금 맞을 접종", "Due now")
        case .vaccineUpcoming: ("다가오는 접종", "Coming up")
        case .vaccineGiven: ("맞은 접종", "Given")
        case .recordDose: ("접종 기록하기", "Record a dose")
        case .vaccine: ("백신", "Vaccine")
        case .clinic: ("접종 기관", "Clinic")
        case .growth: ("성장", "Growth")
        case .growthChartOf: ("성장 곡선:", "Growth chart:")
        case .addMeasurement: ("키·몸무게 기록하기", "Record a measurement")
        case .measure: ("항목", "Measure")
        case .value: ("값", "Value")
        case .growth_height: ("키", "Height")
        case .growth_weight: ("몸무게", "Weight")
        case .growth_head: ("머리둘레", "Head circumference")
        case .addEvent: ("병원·행사 기록하기", "Record a visit or event")
        case .deleteEvent: ("병원·행사 기록 삭제", "Delete visit or event")
        case .editEvent: ("병원·행사 기록 수정", "Edit visit or event")
        case .kind: ("종류", "Kind")
        case .diagnosis: ("진단", "Diagnosis")
        case .eventPhotos: ("사진 (처방전, 진료 기록 등)", "Photos (prescription, the doctor's notes)")
        case .notes: ("메모", "Notes")

        // Sign-in, setup, password, invitations, share links, errors
        case .signIn: ("로그인", "Sign in")
        case .username: ("아이디", "Username")
        case .password: ("비밀번호", "Password")
        case .wrongPassword: ("아이디 또는 비밀번호가 올바르지 않습니다.", "Wrong username or password.")
        case .tooManyAttempts:
            (
                "로그인 시도가 너무 많습니다. 잠시 후 다시 시도해 주세요.",
                "Too many sign-in attempts. Please wait a moment and try again."
            )
        case .currentPassword: ("현재 비밀번호", "Current password")
        case .newPassword: ("새 비밀번호 (8자 이상)", "New password (8 characters or more)")
        case .setUp: ("새싹 시작하기", "Set up Saessak")
        case .weatherLookup: ("날씨 자동 입력", "Weather, filled in")
        case .weatherLookupHint: ("켜면 일기에 처음 위치가 생길 때 그 날짜와 약 10 km 단위로 반올림한 위치만 %@에 보내 그날의 날씨를 채웁니다. 끄면 아무것도 보내지 않습니다.", "When on, only an entry's date and its position rounded to about 10 km go to %@ for the day's weather, when the entry first has a position. Off, nothing is sent.")
        case .weatherLookupOn: ("사진 위치의 그날 날씨를 일기에 채우기", "Fill in the day's weather where the photo was taken")
        case .weatherLookupSaved: ("날씨 설정을 저장했습니다.", "Weather setting saved.")
        case .setUpIntro:
            (
                "이 서버의 첫 사용자이자 가족의 관리자(owner)를 만듭니다.",
                "Create the first user of this server, the owner of your family."
            )
        case .familyName: ("가족 이름", "Family name")
        case .passwordTooShort:
            (
                "비밀번호는 8자 이상 72바이트 이하여야 합니다.",
                "A password needs 8 characters or more and at most 72 bytes."
            )
        case .sharedDiary: ("공유된 일기", "Shared diary")
        case .linkGone: ("이 링크는 만료되었거나 더 이상 쓸 수 없습니다.", "This link has expired or can no longer be used.")
        case .joinFamily: ("가족 초대", "Family invitation")
        case .joinAs: ("역할", "Role")
        case .join: ("참여하기", "Join")
        case .orSignIn: ("이미 계정이 있으면 먼저 로그인하세요.", "If you already have an account, sign in first.")
        case .usernameUnavailable:
            (
                "이 사용자 이름은 쓸 수 없습니다. 다른 이름을 고르거나, 이미 계정이 있으면 먼저 로그인하세요.",
                "This username cannot be used: choose another, or sign in first if you have an account."
            )
        case .tryLater: ("시도가 너무 많습니다. 잠시 후 다시 시도해 주세요.", "Too many attempts. Please wait a moment and try again.")
        case .errorNotFound: ("찾을 수 없습니다", "Not found")
        case .errorForbidden: ("권한이 없습니다", "Not allowed")
        case .errorInput: ("입력한 내용을 확인해 주세요", "Please check what you entered")
        case .errorServer: ("문제가 생겼습니다. 잠시 후 다시 시도해 주세요", "Something went wrong. Please try again in a moment")
        case .errorDiskFull: ("서버의 디스크가 가득 차서 저장하지 못했습니다. 공간을 비운 뒤 다시 시도해 주세요", "The server's disk is full, so nothing was saved. Free some space, then try again")
        }
    }
}
