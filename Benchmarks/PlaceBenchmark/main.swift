// Measures the place lookups for `make bench` (scripts/bench.py prints the table): reading the bundled data, the
// memory it takes, and lookups of pseudo-random points over Korea's bounding box; then the same for the world's
// countries, over the globe (by area).
// Prints one JSON object per line: {"work": …, "count": …, "seconds": …, …}.
import Foundation
import Places

/// This process's resident memory in MB (VmRSS).
func residentMB() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return 0 }
    return Double(line.split(separator: " ").dropFirst().first.flatMap { Double($0) } ?? 0) / 1024
}

let before = residentMB()
let started = DispatchTime.now().uptimeNanoseconds
let places: KoreanPlaces
switch KoreanPlaces.bundled {
case .success(let loaded): places = loaded
case .failure(let error): fatalError("\(error)")  // a benchmark of our own data, not a server
}
let loadSeconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
print("{\"work\":\"load\",\"count\":\(places.areaCount),\"seconds\":\(loadSeconds),\"addedMB\":\(residentMB() - before)}")

/// `count` pseudo-random pairs in [0, 1), the same each run.
func pairs(_ count: Int, seed: UInt64) -> [(Double, Double)] {
    var state = seed
    return (0..<count).map { _ in
        var pair: [Double] = []
        for _ in 0..<2 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            pair.append(Double(state >> 11) / Double(UInt64(1) << 53))
        }
        return (pair[0], pair[1])
    }
}

/// Times `lookup` over `points` and prints the row.
func measure(_ work: String, _ points: [(Double, Double)], _ lookup: (Double, Double) -> Bool) {
    let start = DispatchTime.now().uptimeNanoseconds
    var found = 0
    for (latitude, longitude) in points where lookup(latitude, longitude) { found += 1 }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    print("{\"work\":\"\(work)\",\"count\":\(points.count),\"seconds\":\(seconds),\"found\":\(found)}")
}

let count = 1_000_000
measure("lookups", pairs(count, seed: 20_261_124).map { (33.0 + $0.0 * 5.7, 124.5 + $0.1 * 6.5) }) { places.place(latitude: $0, longitude: $1) != nil }

let worldBefore = residentMB()
let worldStarted = DispatchTime.now().uptimeNanoseconds
let world: WorldCountries
switch WorldCountries.bundled {
case .success(let loaded): world = loaded
case .failure(let error): fatalError("\(error)")
}
let worldSeconds = Double(DispatchTime.now().uptimeNanoseconds - worldStarted) / 1e9
print("{\"work\":\"world load\",\"count\":\(world.count),\"seconds\":\(worldSeconds),\"addedMB\":\(residentMB() - worldBefore)}")
// Uniform over the sphere's area: the sine of the latitude is uniform.
measure("world lookups", pairs(count, seed: 20_261_129).map { (asin($0.0 * 2 - 1) * 180 / .pi, $0.1 * 360 - 180) }) {
    world.country(latitude: $0, longitude: $1) != nil
}
