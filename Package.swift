// swift-tools-version:6.1
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "saessak",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "saessak", targets: ["saessak"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/weichsel/ZIPFoundation.git", from: "0.9.20"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
    ],
    targets: [
        // Pure core: no I/O.
        .target(name: "KoreanCalendar", swiftSettings: swiftSettings),
        .target(name: "Diary", dependencies: ["KoreanCalendar", "Places", "WeatherAnswers"], swiftSettings: swiftSettings),
        // Outside bytes: form bodies and ZIP archives, read without trusting a byte of them.
        .target(name: "Multipart", swiftSettings: swiftSettings),
        .target(name: "ZIPReading", dependencies: ["CInflate"], swiftSettings: swiftSettings),

        // Adapters around the core.
        .systemLibrary(name: "CVips", path: "CModules/CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        .target(name: "CVipsShims", dependencies: ["CVips"], path: "CModules/CVipsShims"),
        // Print: Cairo's PDF surface and Pango's layout (HarfBuzz shaping, line breaks, font fallback) behind a small
        // C shim, as libvips is; the book of a year is typeset with them (docs/book.md).
        .systemLibrary(name: "CPangoCairo", path: "CModules/CPangoCairo", pkgConfig: "pangocairo", providers: [.apt(["libpango1.0-dev", "libcairo2-dev"])]),
        .target(name: "CPrintShims", dependencies: ["CPangoCairo"], path: "CModules/CPrintShims"),
        // The second step's QR code (an otpauth:// address an authenticator app scans).
        .systemLibrary(name: "CQREncode", path: "CModules/CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(name: "CInflate", path: "CModules/CInflate", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "CSearchTokenizer", path: "CModules/CSearchTokenizer", linkerSettings: [.linkedLibrary("sqlite3"), .linkedLibrary("m")]),
        // Untrusted SQLite files (an uploaded iPhotoDiary store) opened defensively: sqlite3_db_config is variadic.
        .target(name: "CSQLiteGuard", path: "CModules/CSQLiteGuard", linkerSettings: [.linkedLibrary("sqlite3")]),
        // Durable file writes (atomic replace, folder sync): the only module that names the C library for them.
        .target(name: "Files", swiftSettings: swiftSettings),
        .target(
            name: "Photos",
            dependencies: [
                "Diary", "CVipsShims", "Files",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        // Photos in S3-compatible object storage: a small Signature V4 client over async-http-client, and the
        // `PhotoStorage` that keeps originals and thumbnails there. `S3Answers` reads the store's XML answers (outside
        // bytes: fuzzed on its own, without the HTTP stack).
        .target(name: "S3Answers", swiftSettings: swiftSettings),
        // Korea's administrative areas (시도, 시군구, 읍면동) from a bundled data file: a photo's place named with no
        // network (docs/place.md).
        .target(name: "Places", dependencies: ["Installation"], resources: [.copy("Resources/korea-places.bin"), .copy("Resources/world-countries.bin")], swiftSettings: swiftSettings),
        // What this copy is (version, the commit a package was built from) and where its resource folders are: beside
        // the program, or in the package's /usr/share/saessak (docs/deploy.md, "The package").
        .target(name: "Installation", swiftSettings: swiftSettings),
        .testTarget(name: "InstallationTests", dependencies: ["Installation"], swiftSettings: swiftSettings),
        // Weather for a day and place from a public archive (Open-Meteo's format): the request and the answer read
        // without trusting it (outside bytes: fuzzed). Opt in per family; nothing is sent otherwise.
        .target(name: "WeatherAnswers", swiftSettings: swiftSettings),
        // E-mail: `MailFormat` writes messages and reads SMTP replies (outside bytes: fuzzed, no I/O); `Mail` talks to
        // the SMTP server over SwiftNIO (STARTTLS by swift-nio-ssl, already in the build through postgres-nio).
        .target(name: "MailFormat", swiftSettings: swiftSettings),
        .target(
            name: "Mail",
            dependencies: [
                "MailFormat",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ObjectStorage",
            dependencies: [
                "Photos", "Files", "S3Answers",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "Secrets",
            dependencies: [
                "Files",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
            ],
            swiftSettings: swiftSettings
        ),
        // WebAuthn's relying party: the CBOR and COSE keys a browser posts, read without trusting a byte, and the checks
        // of a passkey made or used (docs/security.md, "Passkeys").
        .target(
            name: "WebAuthn",
            dependencies: [
                "Diary",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        // What both database engines share: the SQL session interface, stored times, paging, the backup catalogue.
        .target(name: "Persistence", dependencies: ["Diary", "KoreanCalendar", "Secrets", "WeatherAnswers", "CSearchTokenizer"], swiftSettings: swiftSettings),
        .target(
            name: "DiaryStore",
            dependencies: [
                "Diary", "Persistence", "Secrets", "CSearchTokenizer", "CSQLiteGuard",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        // The same stores over PostgreSQL (a host with many families and several servers).
        .target(
            name: "PostgresStore",
            dependencies: [
                "Diary", "DiaryStore", "Persistence", "Secrets", "CSearchTokenizer",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "Backup",
            dependencies: [
                "Diary", "DiaryStore", "Files", "Persistence", "Photos", "ZIPReading",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "Importers",
            dependencies: [
                "Diary", "Persistence", "Photos", "ZIPReading", "CSQLiteGuard",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        // Scheduled snapshots to a second place with restic (docs/backup.md, "Snapshots").
        .target(
            name: "Snapshots",
            dependencies: [
                "Diary", "Persistence", "Files", "Photos", "Backup", "Services", "ObjectStorage",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // What the app does, whatever asks (web pages, the JSON API, the command line): no HTTP in here.
        .target(
            name: "Services",
            dependencies: [
                "Diary", "Persistence", "Files", "Photos", "Places", "Mail", "MailFormat", "Secrets", "WeatherAnswers",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WebApp",
            dependencies: [
                "Diary", "DiaryStore", "Persistence", "Secrets", "Files", "Photos", "Services", "Backup", "Snapshots", "Importers", "Multipart", "Mail", "MailFormat", "Places", "WeatherAnswers", "Installation", "Book", "WebAuthn", "CQREncode",
                .product(name: "HummingbirdOTP", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            resources: [.copy("Resources/openapi.json"), .copy("Resources/templates"), .copy("Resources/assets")],
            swiftSettings: swiftSettings
        ),
        // The book of a year: a print-ready PDF of a child's (or the family's) entries and photos, and the same as a ZIP of
        // plain HTML that opens from disk (docs/book.md).
        .target(
            name: "Book",
            dependencies: [
                "Diary", "KoreanCalendar", "Photos", "Services", "CPrintShims",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "saessak",
            dependencies: [
                "Diary", "DiaryStore", "Persistence", "PostgresStore", "ObjectStorage", "Files", "Secrets", "Photos", "Services", "WebApp", "Backup", "Snapshots", "Importers",
                "Mail", "MailFormat", "Places", "WeatherAnswers", "Installation", "Book",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings,
            // jemalloc instead of glibc's malloc: Swift's tasks allocate on one thread and free on another, and glibc
            // locks the freeing arena for each; with jemalloc the timeline under four clients takes a quarter less
            // server CPU (docs/performance.md, "The allocator"). Linked before libc, so every library in the process
            // uses it.
            linkerSettings: [.linkedLibrary("jemalloc")]
        ),

        // `make bench` only; never part of `make test`.
        // Foundation finds its ICU calendars (the Chinese one the benchmark compares with) by the type's name; linked
        // with `--static-swift-stdlib`, as `make bench` builds, nothing references their object file and
        // `Calendar(identifier: .chinese)` trapped: the linker is told to keep the type.
        .executableTarget(
            name: "calendar-benchmark", dependencies: ["KoreanCalendar"], path: "Benchmarks/CalendarBenchmark",
            swiftSettings: swiftSettings,
            linkerSettings: [.unsafeFlags(["-Xlinker", "-u", "-Xlinker", "$s30FoundationInternationalization12_CalendarICUCMn"])]),
        .executableTarget(
            name: "photo-benchmark", dependencies: ["Photos"], path: "Benchmarks/PhotoBenchmark", swiftSettings: swiftSettings),
        .executableTarget(
            name: "place-benchmark", dependencies: ["Places"], path: "Benchmarks/PlaceBenchmark", swiftSettings: swiftSettings),
        .executableTarget(
            name: "search-benchmark",
            dependencies: ["Diary", "DiaryStore", "Persistence", "KoreanCalendar", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Benchmarks/SearchBenchmark", swiftSettings: swiftSettings),

        .testTarget(name: "KoreanCalendarTests", dependencies: ["KoreanCalendar"], swiftSettings: swiftSettings),
        .testTarget(name: "ZIPReadingTests", dependencies: ["ZIPReading", "CInflate"], swiftSettings: swiftSettings),
        .testTarget(name: "MultipartTests", dependencies: ["Multipart"], swiftSettings: swiftSettings),
        .testTarget(name: "DiaryTests", dependencies: ["Diary"], swiftSettings: swiftSettings),
        .testTarget(name: "FilesTests", dependencies: ["Files"], swiftSettings: swiftSettings),
        .testTarget(name: "SecretsTests", dependencies: ["Secrets"], swiftSettings: swiftSettings),
        .testTarget(name: "WebAuthnTests", dependencies: ["WebAuthn", "Diary"], swiftSettings: swiftSettings),
        .testTarget(name: "PersistenceTests", dependencies: ["Persistence", "Diary"], swiftSettings: swiftSettings),
        .testTarget(name: "DiaryStoreTests", dependencies: ["DiaryStore", "Persistence", "KoreanCalendar", .product(name: "GRDB", package: "GRDB.swift")], swiftSettings: swiftSettings),
        .testTarget(
            name: "StoreTests", dependencies: ["Diary", "DiaryStore", "Persistence", "PostgresStore", "Secrets", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: swiftSettings),
        .testTarget(name: "PhotosTests", dependencies: ["Photos", "Diary"], swiftSettings: swiftSettings),
        .testTarget(name: "BackupTests", dependencies: ["Backup"], swiftSettings: swiftSettings),
        .testTarget(
            name: "SnapshotsTests", dependencies: ["Snapshots", "Diary", "DiaryStore", "Persistence", "Photos"], swiftSettings: swiftSettings),
        .testTarget(name: "PlacesTests", dependencies: ["Places"], swiftSettings: swiftSettings),
        .testTarget(name: "WeatherAnswersTests", dependencies: ["WeatherAnswers"], swiftSettings: swiftSettings),
        .testTarget(name: "MailFormatTests", dependencies: ["MailFormat"], swiftSettings: swiftSettings),
        .testTarget(name: "S3AnswersTests", dependencies: ["S3Answers"], swiftSettings: swiftSettings),
        .testTarget(name: "PostgresStoreTests", dependencies: ["PostgresStore"], swiftSettings: swiftSettings),
        .testTarget(name: "ObjectStorageTests", dependencies: ["ObjectStorage", "S3Answers", "Photos"], exclude: ["sigv4_oracle.py"], swiftSettings: swiftSettings),
        .testTarget(name: "ServicesTests", dependencies: ["Services", "DiaryStore"], swiftSettings: swiftSettings),
        .testTarget(name: "ImportersTests", dependencies: ["Importers"], swiftSettings: swiftSettings),
        .testTarget(
            name: "WebAppTests",
            dependencies: [
                "WebApp",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "BookTests", dependencies: ["Book", "Diary", "KoreanCalendar"], swiftSettings: swiftSettings),
        .testTarget(name: "saessakTests", dependencies: ["saessak"], swiftSettings: swiftSettings),
    ]
)
