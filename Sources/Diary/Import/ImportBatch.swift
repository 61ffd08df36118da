import Foundation
import KoreanCalendar

/// Everything one import read.
public struct ImportBatch: Sendable {
    public var children: [ChildItem] = []
    public var entries: [EntryItem] = []
    public var events: [EventItem] = []
    public var anniversaries: [AnniversaryItem] = []
    /// The photos records refer to, their files already stored (not for a dry run). Only the photos of records
    /// actually added become rows.
    public var photos: [Photo] = []

    public init() {}
}

extension ImportBatch {
    public struct ChildItem: Sendable {
        public let sourceKey: String
        public let child: Child
        /// Written only when the child is new (its birth height and weight).
        public let measurements: [GrowthMeasurement]

        public init(sourceKey: String, child: Child, measurements: [GrowthMeasurement] = []) {
            self.sourceKey = sourceKey
            self.child = child
            self.measurements = measurements
        }
    }

    /// An entry an importer made, with the key that identifies it in its source.
    public struct EntryItem: Sendable {
        public let sourceKey: String
        public let content: EntryContent
        public let photos: [PhotoID]

        public init(sourceKey: String, content: EntryContent, photos: [PhotoID] = []) {
            self.sourceKey = sourceKey
            self.content = content
            self.photos = photos
        }
    }

    public struct EventItem: Sendable {
        public let sourceKey: String
        public let details: EventDetails
        public let photos: [PhotoID]

        public init(sourceKey: String, details: EventDetails, photos: [PhotoID] = []) {
            self.sourceKey = sourceKey
            self.details = details
            self.photos = photos
        }
    }

    public struct AnniversaryItem: Sendable {
        public let sourceKey: String
        public let details: AnniversaryDetails

        public init(sourceKey: String, details: AnniversaryDetails) {
            self.sourceKey = sourceKey
            self.details = details
        }
    }
}

/// What was written (or, in a dry run, would have been), per kind: children, entries, events, anniversaries,
/// photos, measurements.
public struct ImportOutcome: Sendable, Equatable {
    public var added: [String: Int] = [:]
    /// Records this family already imported from the same source.
    public var duplicates: [String: Int] = [:]
    /// Records that could not be written: their child was deleted after an earlier import.
    public var childGone: [Record] = []

    public init() {}

    /// A record of the batch, as a report names it.
    public struct Record: Sendable, Equatable {
        public enum Kind: Sendable, Equatable { case entry, event }
        public let kind: Kind
        public let title: String
        public let date: SolarDate

        public init(kind: Kind, title: String, date: SolarDate) {
            self.kind = kind
            self.title = title
            self.date = date
        }
    }
}
