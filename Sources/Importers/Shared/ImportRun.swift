import Diary
import DiaryStore
import Foundation

/// One import from start to end, the same for the command line and the web: read the source (photos are stored as
/// they are read, or only checked in a dry run), write everything in one transaction, then remove any stored photo
/// file no row took. Nothing is written if reading fails.
public enum ImportRun {
    public static func run(
        source: String, database: DiaryDatabase, dataFolder: URL, family: FamilyID, dryRun: Bool,
        read: (PhotoIntake, inout ImportReport) throws -> ImportStore.Batch
    ) async throws -> ImportReport {
        var report = ImportReport(source: source, dryRun: dryRun)
        let intake = try PhotoIntake(dataFolder: dataFolder, family: family, now: database.clock.now(), dryRun: dryRun)
        do {
            var batch = try read(intake, &report)
            batch.photos = intake.photos
            report.record(try await ImportStore(database).importBatch(batch, family: family, source: source, dryRun: dryRun))
        } catch {
            await intake.settle(database: database)
            throw error
        }
        await intake.settle(database: database)
        return report
    }
}
