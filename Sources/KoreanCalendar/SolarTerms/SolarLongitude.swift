import Foundation

/// The Sun's apparent geocentric ecliptic longitude of date, after Meeus, Astronomical Algorithms ch. 25 and 32:
/// the Earth's heliocentric longitude from VSOP87D (ecliptic and equinox of date), turned geocentric, corrected
/// to FK5, plus nutation in longitude and aberration.
enum SolarLongitude {
    /// Degrees in [0, 360) at `jde` (Julian Ephemeris Day, TT).
    static func apparent(jde: Double) -> Double {
        let centuries = (jde - 2_451_545) / 36_525
        let tau = centuries / 10
        let geometric = VSOP87Earth.longitude(tau: tau) * degreesPerRadian + 180
        let fk5 = -0.09033 / 3600
        let nutation = Nutation.longitude(centuries: centuries) / 3600
        let aberration = -20.4898 / 3600 / VSOP87Earth.radius(tau: tau)
        return normalized(geometric + fk5 + nutation + aberration + precessionModelCorrection * centuries / 3600)
    }

    /// A quick approximation and its rate in degrees per day: the starting point and the slope for refining with
    /// `apparent`. Meeus' low-accuracy formula (ch. 25, ±0.01°) plus the largest perturbations it leaves out —
    /// the Moon's (6.4″) and the semi-annual nutation (1.3″) — which brings it within a few arcseconds.
    static func approximate(jde: Double) -> (longitude: Double, degreesPerDay: Double) {
        let t = (jde - 2_451_545) / 36_525
        let meanLongitude = 280.46646 + 36_000.76983 * t + 0.0003032 * t * t
        let anomaly = (357.52911 + 35_999.05029 * t - 0.0001537 * t * t) / degreesPerRadian
        let center = (1.914602 - 0.004817 * t - 0.000014 * t * t) * FastCosine.sin(anomaly) + (0.019993 - 0.000101 * t) * FastCosine.sin(2 * anomaly)
            + 0.000289 * FastCosine.sin(3 * anomaly)
        let node = (125.04 - 1_934.136 * t) / degreesPerRadian
        let elongation = (297.85036 + 445_267.111480 * t) / degreesPerRadian
        let perturbations = (6.454 * FastCosine.sin(elongation) - 1.319 * FastCosine.sin(2 * meanLongitude / degreesPerRadian)) / 3600
        let longitude = meanLongitude + center - 0.00569 - 0.00478 * FastCosine.sin(node) + perturbations
        let centerRate = (1.914602 * FastCosine.cos(anomaly) + 2 * 0.019993 * FastCosine.cos(2 * anomaly) + 3 * 0.000289 * FastCosine.cos(3 * anomaly))
            * 35_999.05029 / degreesPerRadian
        return (normalized(longitude), (36_000.76983 + centerRate) / 36_525)
    }

    /// The Julian Ephemeris Day near `guess` (within a few days) when the apparent longitude is `target` degrees.
    static func moment(reaching target: Double, near guess: Double) -> Double {
        var jde = guess
        var rate = 1.0
        for _ in 0..<2 {
            let approximation = approximate(jde: jde)
            rate = approximation.degreesPerDay
            jde += difference(target, approximation.longitude) / rate
        }
        // The approximation is now within seconds of arc of the truth; one step with the full theory, whose
        // slope differs from the approximation's by well under 0.1 %, leaves an error far below a second.
        return jde + difference(target, apparent(jde: jde)) / rate
    }

    static let degreesPerRadian = 180 / Double.pi

    /// VSOP87D's equinox of date follows the IAU 1976 precession; modern ephemerides (and KASI) use IAU 2006,
    /// whose general precession in longitude is 5028.796195″ per century against 5029.0966″. Without this the
    /// terms drift from JPL DE421 by about 0.27″ (6.6 s) per century from 2000 (measured; docs/calendar.md).
    static let precessionModelCorrection = 5_028.796195 - 5_029.0966

    static func normalized(_ degrees: Double) -> Double {
        let value = degrees.truncatingRemainder(dividingBy: 360)
        return value < 0 ? value + 360 : value
    }

    /// `target − value`, wrapped into (−180°, 180°].
    static func difference(_ target: Double, _ value: Double) -> Double {
        var delta = (target - value).truncatingRemainder(dividingBy: 360)
        if delta > 180 { delta -= 360 }
        if delta <= -180 { delta += 360 }
        return delta
    }
}

/// The Earth in VSOP87D: heliocentric ecliptic coordinates of date (the series are in `VSOP87Earth+Data.swift`).
enum VSOP87Earth {
    struct Term: Sendable {
        let amplitude: Double
        let phase: Double
        let frequency: Double

        init(_ amplitude: Double, _ phase: Double, _ frequency: Double) {
            self.amplitude = amplitude
            self.phase = phase
            self.frequency = frequency
        }
    }

    /// Heliocentric longitude in radians; `tau` in Julian millennia from J2000.0 (TT).
    static func longitude(tau: Double) -> Double { evaluate(longitude, tau) }

    /// Distance Sun–Earth in astronomical units.
    static func radius(tau: Double) -> Double { evaluate(radius, tau) }

    private static func evaluate(_ series: [[Term]], _ tau: Double) -> Double {
        var total = 0.0
        var power = 1.0
        for terms in series {
            var sum = 0.0
            for term in terms { sum += term.amplitude * FastCosine.cos(term.phase + term.frequency * tau) }
            total += sum * power
            power *= tau
        }
        return total
    }
}

/// Nutation in longitude (Δψ), IAU 1980 theory as in Meeus ch. 22 (the terms are in `Nutation+Data.swift`).
enum Nutation {
    struct Term: Sendable {
        let d, m, mPrime, f, omega: Double
        /// Coefficient of sin(argument) and its rate per century, in 0.0001″.
        let coefficient, rate: Double

        init(_ d: Int, _ m: Int, _ mPrime: Int, _ f: Int, _ omega: Int, _ coefficient: Int, _ rate: Int) {
            (self.d, self.m, self.mPrime, self.f, self.omega) = (Double(d), Double(m), Double(mPrime), Double(f), Double(omega))
            (self.coefficient, self.rate) = (Double(coefficient), Double(rate))
        }
    }

    /// Δψ in arcseconds; `centuries` of 36,525 days from J2000.0 (TT).
    static func longitude(centuries t: Double) -> Double {
        let t2 = t * t
        let t3 = t2 * t
        let radians = 1 / SolarLongitude.degreesPerRadian
        // Mean elongation of the Moon, anomalies of Sun and Moon, Moon's argument of latitude, ascending node.
        let d = (297.85036 + 445_267.111480 * t - 0.0019142 * t2 + t3 / 189_474) * radians
        let m = (357.52772 + 35_999.050340 * t - 0.0001603 * t2 - t3 / 300_000) * radians
        let mPrime = (134.96298 + 477_198.867398 * t + 0.0086972 * t2 + t3 / 56_250) * radians
        let f = (93.27191 + 483_202.017538 * t - 0.0036825 * t2 + t3 / 327_270) * radians
        let omega = (125.04452 - 1_934.136261 * t + 0.0020708 * t2 + t3 / 450_000) * radians
        var sum = 0.0
        for term in terms {
            let argument = term.d * d + term.m * m + term.mPrime * mPrime + term.f * f + term.omega * omega
            sum += (term.coefficient + term.rate * t / 10) * FastCosine.sin(argument)
        }
        return sum * 0.0001
    }
}

/// ΔT = TT − UT1, interpolated from yearly values (`DeltaT+Data.swift`); outside the table, the nearest value.
enum DeltaT {
    /// Seconds at Julian Day `jd`.
    static func seconds(atJulianDay jd: Double) -> Double {
        let year = 2000 + (jd - 2_451_544.5) / 365.2425
        let position = year - Double(firstYear)
        let table = secondsOnFirstOfJanuary
        guard position > 0 else { return table[0] }
        let index = Int(position)
        guard index + 1 < table.count else { return table[table.count - 1] }
        let fraction = position - Double(index)
        return table[index] + (table[index + 1] - table[index]) * fraction
    }
}

/// cos(x) for the moderate arguments of the VSOP87 series (|x| < 10⁵), about four times faster than the C
/// library: Cody–Waite reduction by π/2 in two parts, then Taylor polynomials on [−π/4, π/4] accurate to 1e-15.
enum FastCosine {
    private static let halfPiHigh = 1.5707963267341256  // π/2 to 33 bits
    private static let halfPiLow = 6.077100506506192e-11  // the rest of π/2

    @inline(__always)
    static func cos(_ x: Double) -> Double {
        // Adding and subtracting 1.5·2⁵² rounds to the nearest integer in the FPU, without a call to round().
        let quadrant = (x * (2 / Double.pi) + 6_755_399_441_055_744.0) - 6_755_399_441_055_744.0
        let r = (x - quadrant * halfPiHigh) - quadrant * halfPiLow
        let r2 = r * r
        // Both polynomials and a select, not a branch: the quadrant of each series term is unpredictable.
        let q = Int(quadrant) & 3
        let (c, s) = (cosine(r2), sine(r, r2))
        let odd = Double(q & 1)
        let value = c + (s - c) * odd
        return value * Double(1 - ((q + 1) & 2))
    }

    @inline(__always)
    static func sin(_ x: Double) -> Double { cos(x - Double.pi / 2) }

    @inline(__always)
    private static func cosine(_ r2: Double) -> Double {
        1 + r2 * (-1.0 / 2 + r2 * (1.0 / 24 + r2 * (-1.0 / 720 + r2 * (1.0 / 40_320 + r2 * (-1.0 / 3_628_800
            + r2 * (1.0 / 479_001_600 + r2 * (-1.0 / 87_178_291_200)))))))
    }

    @inline(__always)
    private static func sine(_ r: Double, _ r2: Double) -> Double {
        r * (1 + r2 * (-1.0 / 6 + r2 * (1.0 / 120 + r2 * (-1.0 / 5_040 + r2 * (1.0 / 362_880 + r2 * (-1.0 / 39_916_800
            + r2 * (1.0 / 6_227_020_800 + r2 * (-1.0 / 1_307_674_368_000))))))))
    }
}
