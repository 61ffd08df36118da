import Diary

// The page models of an entry and its editor (what their templates read); the timeline is `TimelinePage`.

extension EntryPages {
    /// What `entry.mustache` shows: the entry, its photos and clips in the viewer, and its reactions.
    struct EntryModel: PageModel {
        let id: String
        let date: String
        let calendarLink: String
        let iso: String
        let body: String
        let tags: [String]
        let children: [TaggedChild]
        let hasPhotos: Bool
        let manyPhotos: Bool
        let photos: [ViewerPhoto]
        let reactions: ReactionPages.Section
        let lunar: String?
        let place: String?
        let weather: String?
        /// `수정됨 · 3번`, linking to the earlier versions, when the entry was ever edited.
        let edited: String?
    }

    struct TaggedChild {
        let id: String
        let name: String
        let age: String?
    }

    /// A photo or clip of the viewer, with its hearts and comments (its form posts back with the entry's id and the
    /// CSRF token).
    struct ViewerPhoto {
        let large: String
        let original: String
        let alt: String
        let number: Int
        let video: ViewerVideo?
        let photoId: String
        let ages: String?
        let id: String
        let csrf: String
        let heartCount: Int
        let hearted: Bool
        let commentCount: Int
    }

    /// A clip in the viewer: the player's source, or how far its web version is, or that it could not be made.
    struct ViewerVideo {
        let id: String
        var src: String?
        var preparing: String?
        var failed = false
    }

    /// What `entry-editor.mustache` shows.
    struct EditorModel: PageModel {
        let action: String
        let entryTitle: String
        let body: String
        let date: String
        let tags: String
        let place: String
        let weather: String
        let latitude: String
        let longitude: String
        let version: String
        let children: [EditorChild]
        let noChildren: Bool
        let photos: [EditorPhoto]
        let cancel: String
        let maxFiles: Int
        let error: String?
        let placeHint: String?
    }

    struct EditorChild {
        let id: String
        let name: String
        let checked: Bool
        let born: String
    }

    struct EditorPhoto {
        let id: String
        let thumbnail: String
        let number: Int
        let videoBadge: String?
    }
}
