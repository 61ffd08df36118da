// Measures the place lookup for `make bench` (scripts/bench.py prints the table): reading the bundled data, the
// memory it takes, and lookups of pseudo-random points over Korea's bounding box.
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

var state: UInt64 = 20_261_124
var points: [(Double, Double)] = []
let count = 1_000_000
for _ in 0..<count {
    var pair: [Double] = []
    for _ in 0..<2 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        pair.append(Double(state >> 11) / Double(UInt64(1) << 53))
    }
    points.append((33.0 + pair[0] * 5.7, 124.5 + pair[1] * 6.5))
}
let start = DispatchTime.now().uptimeNanoseconds
var found = 0
for (latitude, longitude) in points where places.place(latitude: latitude, longitude: longitude) != nil { found += 1 }
let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
print("{\"work\":\"lookups\",\"count\":\(count),\"seconds\":\(seconds),\"found\":\(found)}")
