// For `make bench` (scripts/bench.py): makes both thumbnail sizes of every file named on the command line, as the
// server does, and prints {"files": n, "seconds": s}. Run under /usr/bin/time -v for the peak RSS.
import Foundation
import Photos

let files = CommandLine.arguments.dropFirst().map { URL(fileURLWithPath: $0) }
try PhotoFolder.startImageLibrary()
let start = DispatchTime.now().uptimeNanoseconds
var bytes = 0
for file in files {
    for size in [ThumbnailSize.small, .large] {
        bytes += try Thumbnailer.thumbnail(of: file, size: size).count
    }
}
let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
print("{\"files\":\(files.count),\"seconds\":\(seconds),\"bytes\":\(bytes)}")
