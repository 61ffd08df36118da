import Hummingbird
import Services

/// Every word of the web app, Korean first and complete in English: one table for the templates (`{{t.key}}`, the
/// case's name) and the pages built in Swift (`words[.key]`, `Word.key.text(language)`). The switch below is
/// exhaustive (`Word+Texts.swift`), so a word without both languages does not compile; a template naming a word that is not here fails
/// `TemplateTests`.
enum Word: String, CaseIterable, Sendable {
    case appName, skipToContent, mainMenu, home, timeline, write, calendar, more, search, searchPlaceholder
    case settings, edit, delete, save, cancel, create, add, go, all, none, apply, clear, older, confirmDelete
    case noFamily, children, child, birthday, noChildrenYet, addChild, writeToday, comingUp, nothingComingUp
    case onThisDay, nothingOnThisDay, filters, tag, tags, tagsExample, year, yearMonth, month, day, searchResults
    case noResults, noEntries, memo, entries, photos, photo, swipeHint, previousPhoto, nextPhoto, showPhoto
    case video, videoPreparing, videoFailed, downloadOriginal, offline, offlineNote, offlinePage, entryChanged
    case weatherLookup, weatherLookupHint, weatherLookupOn, weatherLookupSaved
    case whatsNew, newBadge, markAllRead, album, noPhotosThisMonth, heart, hearts, heartedBy, comments, comment, writeComment, postComment, editComment, formerMember, edited
    case newEntry, editEntry, deleteEntry, deleteEntryWarning, entryTitle, entryBody, dateTime, weather
    case weatherExample, place, keep, addPhotos, photosHint, moveUp, moveDown, remove, uploading, uploadFailed
    case previousYear, nextYear, previousMonth, nextMonth, previousDay, nextDay, thisMonth, jumpToMonth, lunarDate
    case ganji, solarTerm, holiday, familyDays, events, noEntriesThisDay, editChild, deleteChild, name, nickname
    case birthDate, dateYMD, birthDateHint, solar, lunar, leapMonth, birthTime, sex, notSaying, girl, boy
    case birthplace, hospital, residentNumber, residentNumberHint, profilePhoto, choosePhoto, squareCropHint, health
    case anniversaries, memos, calculator, result, back, searchMemos, newMemo, deleteMemo, noMemos, newAnniversary
    case editAnniversary, deleteAnniversary, noAnniversaries, anniversaryName, date, next, redDay, showAsRedDay
    case forChild, account, signedInAs, family, switchFamily, changePassword, passwordChanged, signOut
    case signOutEverywhere, signOutEverywhereHint, myShareLinks, revokeMyShareLinks, myShareLinksRevoked, language, members, invitations, invite, role, myRole, role_owner
    case role_editor, role_viewer, validDays, until, revoke, noneYet, shareLinks, shareLink, shareLinksHint
    case shareThisEntry, makeShareLink, calendarFeeds, calendarFeed, calendarFeedsHint, label, includeHolidays
    case apiTokens, tokenName, newTokenOnce, newInvitationOnce, newShareLinkOnce, newFeedOnce, backup, backupHint
    case includeResidentNumber, downloadBackup, importTitle, importHint, import_text, import_iphotodiary
    case import_dayone, importSource, importFile, importPlist, importChildrenHint, importEncoding
    case importPreviewButton, importPreview, importPreviewNote, importConfirm, importDone, importDoneNote
    case importChooseKind, importChooseFile, importNeedsChild, importWhat, importFound, importAdded
    case importDuplicates, importSkipped, importWarnings, importKind_children, importKind_entries, importKind_events
    case importKind_anniversaries, importKind_photos, importKind_measurements, event_hospital, event_milestone
    case event_other, vaccinations, vaccineOverdue, vaccineDue, vaccineUpcoming, vaccineGiven, recordDose, vaccine
    case clinic, growth, growthChartOf, addMeasurement, measure, value, growth_height, growth_weight, growth_head
    case addEvent, deleteEvent, editEvent, kind, diagnosis, eventPhotos, notes, signIn, username, password
    case wrongPassword, tooManyAttempts, currentPassword, newPassword, setUp, setUpIntro, familyName
    case passwordTooShort, sharedDiary, linkGone, joinFamily, joinAs, join, orSignIn, usernameUnavailable, tryLater
    case errorNotFound, errorForbidden, errorInput, errorServer
    case errorDiskFull

    func text(_ language: Language) -> String { language == .korean ? texts.korean : texts.english }
}

/// The words in one language, as pages use them.
struct Words {
    let language: Language

    static func table(_ language: Language) -> Words { Words(language: language) }

    subscript(_ word: Word) -> String { word.text(language) }

    subscript(_ word: TrashWord) -> String { word.text(language) }

    subscript(_ word: ActivityWord) -> String { word.text(language) }

    subscript(_ word: BookWord) -> String { word.text(language) }

    subscript(_ word: SignInWord) -> String { word.text(language) }

    subscript(_ word: ImportWord) -> String { word.text(language) }

    /// A word whose name is made at run time (`growth_height`), or nil when there is none by that name.
    func named(_ name: String) -> String? { Word(rawValue: name)?.text(language) ?? ImportWord(rawValue: name)?.text(language) }

    /// Every word by name: the templates' `t`.
    var dictionary: [String: String] { Self.dictionaries[language] ?? [:] }

    private static let dictionaries: [Language: [String: String]] = Dictionary(
        uniqueKeysWithValues: [Language.korean, .english].map { language in
            (
                language,
                Dictionary(
                    uniqueKeysWithValues: Word.allCases.map { ($0.rawValue, $0.text(language)) }
                        + MailWord.allCases.map { ($0.rawValue, $0.text(language)) }
                        + TrashWord.allCases.map { ($0.rawValue, $0.text(language)) }
                        + ActivityWord.allCases.map { ($0.rawValue, $0.text(language)) }
                        + BookWord.allCases.map { ($0.rawValue, $0.text(language)) }
                        + SignInWord.allCases.map { ($0.rawValue, $0.text(language)) }
                        + ImportWord.allCases.map { ($0.rawValue, $0.text(language)) })
            )
        })
}
