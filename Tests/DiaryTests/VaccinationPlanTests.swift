import Diary
import KoreanCalendar
import Testing

@Suite struct VaccinationPlanTests {
    func date(_ text: String) -> SolarDate { try! SolarDate(iso: text) }

    func window(_ plan: [PlannedDose], _ vaccine: Vaccine, _ number: Int) -> String? {
        plan.first { $0.vaccine == vaccine && $0.number == number }.map { "\($0.start.iso)…\($0.end.iso)" }
    }

    /// A child born 2025-03-15, nothing given yet: every window, from the rules in vaccination-kr.md as docs/health.md
    /// reads them ("at N months" is due from N months to the day before N + 1 months; "A–B" to the day before B + 1).
    @Test(arguments: [
        (Vaccine.bcg, 1, "2025-03-15…2025-04-12"),
        (.hepB, 1, "2025-03-15…2025-04-14"),
        (.hepB, 2, "2025-04-15…2025-05-14"),
        (.hepB, 3, "2025-09-15…2025-10-14"),
        (.dtap, 1, "2025-05-15…2025-06-14"),
        (.dtap, 3, "2025-09-15…2025-10-14"),
        (.dtap, 4, "2026-06-15…2026-10-14"),
        (.dtap, 5, "2029-03-15…2032-03-14"),
        (.tdap, 1, "2036-03-15…2038-03-14"),
        (.ipv, 4, "2029-03-15…2032-03-14"),
        (.hib, 4, "2026-03-15…2026-07-14"),
        (.pcv, 2, "2025-07-15…2025-08-14"),
        (.mmr, 1, "2026-03-15…2026-07-14"),
        (.mmr, 2, "2029-03-15…2032-03-14"),
        (.varicella, 1, "2026-03-15…2026-07-14"),
        (.hepA, 1, "2026-03-15…2027-03-14"),
        (.hepA, 2, "2026-09-15…2027-09-15"),  // from the first day dose 1 was due, until dose 1 is given
        (.ijev, 1, "2026-03-15…2027-03-14"),
        (.ijev, 2, "2026-03-22…2026-04-14"),
        (.ijev, 4, "2031-03-15…2032-03-14"),
        (.ijev, 5, "2037-03-15…2038-03-14"),
        (.hpv, 1, "2037-03-15…2038-03-14"),
        (.hpv, 2, "2037-09-15…2038-03-15"),
    ])
    func windowsFromTheBirthDate(vaccine: Vaccine, number: Int, expected: String) {
        let plan = VaccinationPlan.plan(birthDate: date("2025-03-15"), sex: .female, records: [], today: date("2025-03-15"))
        #expect(window(plan, vaccine, number) == expected)
    }

    @Test func monthsRollForwardFromTheEndOfAMonth() {
        let plan = VaccinationPlan.plan(birthDate: date("2025-01-31"), sex: .male, records: [], today: date("2025-01-31"))
        #expect(window(plan, .hepB, 2) == "2025-03-01…2025-03-30")  // 31 February rolls to 1 March
        #expect(window(plan, .dtap, 1) == "2025-03-31…2025-04-30")
    }

    @Test func laterDosesCountFromTheDayThePreviousWasGiven() {
        let records = [
            VaccinationRecord(product: .hepA, date: date("2026-04-01")),
            VaccinationRecord(product: .ijev, date: date("2026-05-01")),
            VaccinationRecord(product: .ijev, date: date("2026-05-20")),
        ]
        let plan = VaccinationPlan.plan(birthDate: date("2025-03-15"), sex: .female, records: records, today: date("2026-06-01"))
        #expect(window(plan, .hepA, 2) == "2026-10-01…2027-10-01")
        #expect(window(plan, .ijev, 2) == "2026-05-08…2026-05-31")
        #expect(window(plan, .ijev, 3) == "2027-05-20…2027-06-19")
        // Choosing IJEV by giving it removes LJEV's doses.
        #expect(!plan.contains { $0.vaccine == .ljev })
    }

    @Test func statusesAndCombinationVaccines() {
        let records = [
            VaccinationRecord(product: .bcg, date: date("2025-03-20")),
            VaccinationRecord(product: .hepB, date: date("2025-03-15")),
            VaccinationRecord(product: .dtapIpvHib, date: date("2025-05-20")),
        ]
        let plan = VaccinationPlan.plan(
            birthDate: date("2025-03-15"), sex: .female, records: records,
            skipped: [DoseKey(vaccine: .pcv, number: 1)], today: date("2025-06-20"))
        func status(_ vaccine: Vaccine, _ number: Int) -> PlannedDose.Status? {
            plan.first { $0.vaccine == vaccine && $0.number == number }?.status
        }
        #expect(status(.bcg, 1) == .given)
        #expect(status(.dtap, 1) == .given && status(.ipv, 1) == .given && status(.hib, 1) == .given)
        #expect(plan.first { $0.vaccine == .hib && $0.number == 1 }?.givenOn == date("2025-05-20"))
        #expect(status(.hepB, 2) == .overdue)  // 2025-04-15…2025-05-14
        #expect(status(.pcv, 1) == .skipped)
        #expect(status(.dtap, 2) == .upcoming)  // from 2025-07-15
        #expect(status(.hepB, 3) == .upcoming)
        // Nothing chosen or given for rotavirus yet: both alternatives are listed, marked as a choice to make.
        #expect(status(.rv1, 1) == .overdue && status(.rv5, 1) == .overdue)
        #expect(plan.first { $0.vaccine == .rv5 }?.pendingChoice == .rotavirus)
        let chosen = VaccinationPlan.plan(
            birthDate: date("2025-03-15"), sex: .female, records: records, choices: [.rotavirus: .rv5], today: date("2025-06-20"))
        #expect(!chosen.contains { $0.vaccine == .rv1 } && chosen.filter { $0.vaccine == .rv5 }.count == 3)
    }

    @Test(arguments: [
        ("2012-06-01", Sex.male, false),  // 12 until 2025-05-31: before boys were added
        ("2013-06-01", Sex.male, true),  // still 12 on 2026-01-01
        ("2012-06-01", Sex.female, true),
    ])
    func hpvForGirlsAndFromTwentyTwentySixForBoys(birth: String, sex: Sex, included: Bool) {
        let plan = VaccinationPlan.plan(birthDate: date(birth), sex: sex, records: [], today: date("2026-01-01"))
        #expect(plan.contains { $0.vaccine == .hpv } == included)
    }

    /// Influenza every autumn (1 October – 30 April) from 6 months to 13 years; two doses four weeks apart in the first
    /// season, under 9 years.
    @Test func influenzaEverySeasonWithTwoDosesTheFirstYear() {
        let flu = { (plan: [PlannedDose]) in plan.filter { $0.vaccine == .influenza } }
        let born = flu(VaccinationPlan.plan(birthDate: date("2025-03-15"), sex: .female, records: [], today: date("2025-11-01")))
        #expect(born.prefix(3).map { "\($0.season!) \($0.number) \($0.start.iso)…\($0.end.iso)" } == [
            "2025 1 2025-10-01…2026-04-30", "2025 2 2025-10-29…2026-04-30", "2026 3 2026-10-01…2027-04-30",
        ])
        #expect(born.last.map { "\($0.season!) \($0.start.iso)…\($0.end.iso)" } == "2037 2037-10-01…2038-03-14")
        #expect(born.count == 2 + 12)
        #expect(born[0].status == .due && born[1].status == .due && born[2].status == .upcoming)
        // Six months old in December: the first season starts then.
        let late = flu(VaccinationPlan.plan(birthDate: date("2025-06-01"), sex: .male, records: [], today: date("2025-06-01")))
        #expect(late.first?.start == date("2025-12-01"))
        // A shot counts for its season; the second dose of the first season comes four weeks after the first.
        let shots = [VaccinationRecord(product: .influenza, date: date("2025-11-01")), VaccinationRecord(product: .influenza, date: date("2026-10-20"))]
        let given = flu(VaccinationPlan.plan(birthDate: date("2025-03-15"), sex: .female, records: shots, today: date("2026-11-01")))
        #expect(given[0].givenOn == date("2025-11-01") && given[1].start == date("2025-11-29") && given[1].status == .overdue)
        #expect(given[2].givenOn == date("2026-10-20") && given[2].season == 2026)
    }

    @Test func everyDoseOfTheScheduleIsPlannedOnce() {
        let plan = VaccinationPlan.plan(
            birthDate: date("2025-03-15"), sex: .female, records: [],
            choices: [.rotavirus: .rv1, .japaneseEncephalitis: .ljev], today: date("2025-03-15"))
        let influenza = plan.filter { $0.vaccine == .influenza }.count
        #expect(plan.count - influenza == VaccinationSchedule.korea2023.doses.count - 3 - 5)  // RV5's 3 and IJEV's 5 left out
        #expect(Set(plan.map { DoseKey(vaccine: $0.vaccine, number: $0.number) }).count == plan.count)
        #expect(plan.allSatisfy { $0.start <= $0.end })
    }
}
