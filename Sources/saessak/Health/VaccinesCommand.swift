import ArgumentParser
import Diary
import Foundation
import KoreanCalendar
import Persistence
import Services

struct VaccinesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vaccines",
        abstract: "A child's vaccinations on the national schedule: each dose's dates and status.",
        discussion: "CHILD is the child's name or ID. Statuses: 예정 (upcoming), 접종 시기 (due), 지남 (overdue), 완료 (given), 건너뜀 (skipped).")

    @OptionGroup var data: DataOptions
    @OptionGroup var family: FamilyOption
    @OptionGroup var output: OutputOptions

    @Argument(help: "The child's name or ID.")
    var child: String

    @Option(help: ArgumentHelp("The day to judge the statuses on (default: today in Seoul).", valueName: "YYYY-MM-DD"))
    var date: String?

    func validate() throws {
        if let date, (try? SolarDate(iso: date)) == nil {
            throw ArgumentParser.ValidationError("--date '\(date)' is not a date in the form YYYY-MM-DD")
        }
    }

    func run() async throws {
        let database = try await data.openExisting()
        let familyID = try await database.stores.accounts.family(named: family.family).id
        let found = try await ChildLookup.find(child, family: familyID, in: database.stores)
        let day = try date.map { try SolarDate(iso: $0) } ?? Today(clock: database.clock).date()
        let plan = try VaccinationPlans.plan(for: found, try await database.stores.vaccinations.vaccinations(family: familyID, child: found.id), on: day)
        if output.json {
            print(try JSONShapes.text(plan))
            return
        }
        print("\(found.profile.name) — \(day.iso) 기준 (\(VaccinationSchedule.korea2023.version))")
        for dose in plan.doses {
            var line = "\(Self.label(dose.vaccine)) \(dose.number)차".padding(toLength: 22, withPad: " ", startingAt: 0)
            line += "\(dose.start) … \(dose.end)  \(Self.status(dose.status))"
            if let given = dose.givenOn { line += " \(given)" }
            if dose.pendingChoice != nil { line += " (선택 필요)" }
            print(line)
        }
    }

    static func label(_ vaccine: Vaccine) -> String {
        switch vaccine {
        case .bcg: "BCG(결핵)"
        case .hepB: "B형간염"
        case .dtap: "DTaP"
        case .tdap: "Tdap/Td"
        case .ipv: "폴리오(IPV)"
        case .hib: "Hib"
        case .pcv: "폐렴구균"
        case .rv1: "로타(RV1)"
        case .rv5: "로타(RV5)"
        case .mmr: "MMR"
        case .varicella: "수두"
        case .hepA: "A형간염"
        case .ijev: "일본뇌염(불활성화)"
        case .ljev: "일본뇌염(생백신)"
        case .hpv: "HPV"
        case .influenza: "인플루엔자"
        }
    }

    static func status(_ status: PlannedDose.Status) -> String {
        switch status {
        case .upcoming: "예정"
        case .due: "접종 시기"
        case .overdue: "지남"
        case .given: "완료"
        case .skipped: "건너뜀"
        }
    }
}
