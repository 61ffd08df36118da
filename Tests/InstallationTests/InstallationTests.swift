import Foundation
import Testing

@testable import Installation

/// Where the resource folders are found and what `build-info` says (the package: blackbox/test_package.py).
@Suite struct InstallationTests {
    @Test func aBuildFindsItsResourcesBesideItself() {
        #expect(Installation.missingResources() == nil)
        for bundle in Installation.requiredResources {
            #expect(Installation.resources(bundle)?.lastPathComponent == "\(bundle).resources")
        }
        #expect(Installation.resources("saessak_Nothing") == nil)
    }

    @Test func buildInfoIsKeyValueLines() {
        let info = Installation.buildInfo(from: "version=0.3.1\ncommit=0123456789abcdef0123456789abcdef01234567\nnoise\n=\n")
        #expect(info["version"] == "0.3.1" && info["commit"]?.count == 40 && info.count == 2)
    }

    @Test func aBuildFromSourceSaysSo() {
        #expect(Installation.commit == nil && Installation.version == Installation.sourceVersion)
        #expect(Installation.description == "\(Installation.sourceVersion) (built from source)")
    }
}
