import Diary
import Testing

@Suite struct WHOGrowthStandardTests {
    /// Medians and SD lines from WHO's published tables (wfa/lhfa/hcfa, boys and girls).
    @Test(arguments: [
        (WHOGrowthStandard.Indicator.weight, Sex.male, 0, 3.3464, 0.0),  // boys' birth weight median
        (.weight, .female, 0, 3.2322, 0.0),
        (.height, .male, 0, 49.8842, 0.0),
        (.head, .female, 0, 33.8787, 0.0),
        (.height, .female, 730, 86.4008, 0.0),  // length at 2 years (day 730); standing height from day 731
    ])
    func mediansAreTheFiftiethPercentile(indicator: WHOGrowthStandard.Indicator, sex: Sex, day: Int, value: Double, z: Double) throws {
        let result = try #require(WHOGrowthStandard.assess(indicator, sex: sex, ageInDays: day, value: value))
        #expect(abs(result.zScore - z) < 0.001)
        #expect(abs(result.percentile - 50) < 0.05)
    }

    @Test func zScoresInsideAndBeyondThreeStandardDeviations() throws {
        let lms = try #require(WHOGrowthStandard.lms(.weight, sex: .male, ageInDays: 365))
        for z in [-2.0, -1.0, 1.0, 2.0, 2.9] {
            #expect(abs(lms.zScore(lms.value(atZ: z)) - z) < 1e-9)
        }
        // Beyond +3 SD the distance counts in 2–3 SD steps: halfway past SD3 by one such step is 3.5.
        let sd3 = lms.value(atZ: 3)
        let step = sd3 - lms.value(atZ: 2)
        #expect(abs(lms.zScore(sd3 + step / 2) - 3.5) < 1e-9)
        #expect(abs(WHOGrowthStandard.percentile(1.0) - 84.134) < 0.001)
        #expect(abs(WHOGrowthStandard.percentile(-1.880794) - 3.0) < 0.001)
    }

    @Test func agesOutsideTheStandardHaveNoAssessment() {
        #expect(WHOGrowthStandard.assess(.weight, sex: .male, ageInDays: -1, value: 3) == nil)
        #expect(WHOGrowthStandard.assess(.weight, sex: .male, ageInDays: 1857, value: 18) == nil)
        #expect(WHOGrowthStandard.assess(.head, sex: .female, ageInDays: 1856, value: 50) != nil)
    }
}
