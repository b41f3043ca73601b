// swift-tools-version:6.1
import CompilerPluginSupport
import PackageDescription

// Supported: Linux only (built and tested on Debian 12 with Swift 6.3), but for CoordinatorClient.
// The server uses epoll and TCP_DEFER_ACCEPT (its tests /proc), so none of its products builds for
// an Apple platform (HTTPServer stops such a build with an #error that says so). `platforms` gives only the Apple
// deployment minimums, which SwiftPM ignores on Linux: they are for CoordinatorClient, the
// Foundation-only client for native shells, which builds on Apple platforms too and must not
// depend on the server's modules.
let package = Package(
    name: "coordinatord",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "coordinatord", targets: ["coordinatord"]),
        .executable(name: "coordinatord-corebench", targets: ["CoreBench"]),
        .executable(name: "coordinatord-appbench", targets: ["AppBench"]),
        .library(name: "Navigation", targets: ["Navigation"]),
        // `@ScreenEvents`, opt-in: it builds swift-syntax, which apps that do not use it skip.
        .library(name: "NavigationMacros", targets: ["NavigationMacros"]),
        // The server library: an app's executable calls `CoordinatorServer.main` with its app.
        // Its modules are what an app author imports: the runtime, the store for the app's
        // models, password work, and the session service's environment types.
        .library(
            name: "CoordinatorServer",
            targets: ["CoordinatorServer", "CoordinatorApp", "Navigation", "Store", "SQLiteStore", "Secrets", "Sessions"]),
        // Account protections an app opts into: failure throttles, rate limits, device credentials,
        // e-mail comparison keys; with migrations of their own scope.
        .library(name: "AccountProtection", targets: ["AccountProtection"]),
        // Sign-in, registration and account settings on those protections: screens, coordinators,
        // the `users` table (both stores), every app's in a few lines.
        .library(name: "SignInKit", targets: ["SignInKit"]),
        // The testing product an app adds to its test target: its flows on an in-memory database
        // through the server's own event loop, and its real binary on a free port.
        .library(name: "CoordinatorTesting", targets: ["CoordinatorTesting"]),
        // What an app's library declares (`ServedApp`) on the modules it writes against, without
        // the server: an app library that depends on it alone builds on a Mac too.
        .library(name: "CoordinatorApp", targets: ["CoordinatorApp", "Navigation", "Store", "Secrets", "Sessions"]),
        // Its flow part alone (`AppTester`): an app's flows on an in-memory database, with no
        // HTTP server, no PostgreSQL and nothing Linux-only, so an app team tests its flows on a Mac.
        // `CoordinatorTesting` includes it.
        .library(name: "CoordinatorFlowTesting", targets: ["CoordinatorFlowTesting"]),
        // The client native shells link (iOS, macOS, Linux): Foundation only, none of the server's modules.
        .library(name: "CoordinatorClient", targets: ["CoordinatorClient"]),
        // Exports the server's spans over OTLP (`ServedApp.exportingTraces(OTLPTracing())`).
        .library(name: "CoordinatorOTel", targets: ["CoordinatorOTel"]),
        // Builds an app target's `Migrations` and `Resources` folders into its code, so its binary
        // needs no resource bundle beside it (see Plugins/EmbedFiles).
        .plugin(name: "EmbedFiles", targets: ["EmbedFiles"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // Deque: the FIFO queues of waiters (readers, libpq connections, a session's lock).
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        // The `@ScreenEvents` macro's implementation (only the NavigationMacros product needs it).
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
        // Spans of the server's stages (the API: light); exported over OTLP by swift-otel, only in
        // the CoordinatorOTel product (it brings SwiftNIO and AsyncHTTPClient: apps that do not
        // export traces do not build them). OTLP/HTTP only: the gRPC exporter is not built.
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // `make docs`: the public modules' DocC catalogs (a command plugin; nothing of it is linked).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CMicroHTTPD", pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(
            name: "CSodium", pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"])]),
        // Snapshots are stored LZ4-compressed: a few µs for 4 KB, and the row stays within one page.
        .systemLibrary(
            name: "CLZ4", pkgConfig: "liblz4",
            providers: [.apt(["liblz4-dev"])]),

        // The kernel's name of each thread the server starts (for `top -H` and `perf`).
        .systemLibrary(name: "CThreadName"),
        // TCMalloc (gperftools' minimal build) in place of glibc's allocator, for every library of
        // the process: an event's memory is allocated on one thread and freed on another, which
        // glibc's arenas serve with locks and merges (12 % of the server's CPU). Alternated runs
        // on issue 25's loads: 0.87–0.91× CPU per event on SQLite, 0.83× on PostgreSQL's toggle
        // (jemalloc: 0.98×; mimalloc: 1.07×). Nothing on the mirror replaces a C allocator.
        .systemLibrary(
            name: "CMalloc", pkgConfig: "libtcmalloc_minimal",
            providers: [.apt(["libgoogle-perftools-dev"])]),

        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD", "CThreadName"]),
        .systemLibrary(
            name: "CPostgres", pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]),

        .target(name: "Store"),
        // The session tables' persistence: the protocol each backend implements, and the SQL both accept.
        .target(name: "SessionStorage", dependencies: ["Store"]),
        .target(
            name: "SQLiteStore",
            dependencies: [
                "Store", "SessionStorage", "CSQLite", "CThreadName", .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]),
        .target(
            name: "PostgresStore",
            dependencies: [
                "Store", "SessionStorage", "CPostgres", "CThreadName", "CoordinatorJSON",
                .product(name: "DequeModule", package: "swift-collections"),
            ]),
        .target(name: "Secrets", dependencies: ["CSodium", "CThreadName"]),
        // The JSON value, its parser and writer: shared by the runtime and the client.
        .target(name: "CoordinatorJSON"),
        .target(name: "Navigation", dependencies: ["CoordinatorJSON"]),
        .macro(
            name: "NavigationMacrosPlugin",
            dependencies: [
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ]),
        .target(name: "NavigationMacros", dependencies: ["Navigation", "NavigationMacrosPlugin"]),
        .target(
            name: "Sessions",
            dependencies: [
                "Store", "SessionStorage", "Secrets", "Navigation", "CLZ4",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
            ]),
        // What an app declares to be served (`ServedApp`) and coordinatord's own migrations: all
        // that running its flows needs, without the HTTP server or PostgreSQL.
        .target(
            name: "CoordinatorApp",
            dependencies: [
                "Navigation", "Store", "Secrets", "Sessions",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            plugins: ["EmbedFiles"]),
        .target(
            name: "CoordinatorServer",
            dependencies: [
                "CoordinatorApp", "HTTPServer", "Store", "SessionStorage", "SQLiteStore", "PostgresStore", "Secrets", "Navigation", "Sessions", "CMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            // coordinatord's migrations, the web client and the OpenAPI document, built into the
            // module: a binary built from any folder serves with nothing beside it.
            plugins: ["EmbedFiles"]),
        .target(
            name: "AccountProtection", dependencies: ["Navigation", "Store", "Secrets"], exclude: ["Migrations"],
            plugins: ["EmbedFiles"]),
        .target(
            name: "SignInKit",
            dependencies: [
                "CoordinatorApp", "Navigation", "NavigationMacros", "Store", "Secrets", "AccountProtection",
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            exclude: ["Migrations"],
            plugins: ["EmbedFiles"]),
        .target(
            name: "SampleApp",
            dependencies: ["Navigation", "NavigationMacros", "Store", "Secrets", "AccountProtection", "SignInKit"],
            exclude: ["Migrations"],
            plugins: ["EmbedFiles"]),
        // Imports the server library beyond the table in docs/architecture.md (Navigation, the store, Sessions): an
        // app's migrations, settings and environment are declared in its `ServedApp`, so a test
        // builds them as `serve` does rather than re-plumbing them; every app links it already.
        .target(
            name: "CoordinatorFlowTesting",
            dependencies: ["CoordinatorApp", "Navigation", "Store", "SessionStorage", "SQLiteStore", "Secrets", "Sessions"]),
        .target(
            name: "CoordinatorTesting",
            // CoordinatorClient: the live stream's transport and parser, for `LiveSession.stream()`.
            dependencies: [
                "CoordinatorFlowTesting", "CoordinatorServer", "Navigation", "Store", "SQLiteStore", "Secrets", "Sessions", "CoordinatorClient",
            ]),
        .target(name: "CoordinatorClient", dependencies: ["CoordinatorJSON"]),
        .executableTarget(
            name: "coordinatord",
            dependencies: [
                "CoordinatorServer", "SampleApp", "CoordinatorOTel",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .target(
            name: "CoordinatorOTel",
            dependencies: [
                "CoordinatorServer", .product(name: "OTel", package: "swift-otel"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // Builds files into a module's code (see Plugins/EmbedFiles).
        .executableTarget(name: "EmbedFilesTool"),
        .plugin(name: "EmbedFiles", capability: .buildTool(), dependencies: ["EmbedFilesTool"]),

        .executableTarget(name: "CoreBench", dependencies: ["Navigation"]),
        .executableTarget(name: "AppBench", dependencies: ["Navigation", "Store", "SQLiteStore", "SampleApp", "Secrets"]),

        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // A test-only app whose flows fail on purpose (a constraint, a syntax error, a thrown error).
        .executableTarget(name: "FlowFaultsApp", dependencies: ["CoordinatorServer"], path: "Tests/FlowFaultsApp"),
        // A test-only app in three builds of one coordinator, for the deploy check (issue 23).
        .executableTarget(
            name: "DeployCheckApp", dependencies: ["CoordinatorServer", "Navigation", "Store"], path: "Tests/DeployCheckApp"),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "TestSupport"]),
        .testTarget(name: "SQLiteStoreTests", dependencies: ["SQLiteStore", "Store", "TestSupport"]),
        .testTarget(name: "SecretsTests", dependencies: ["Secrets", "TestSupport"]),
        .testTarget(name: "NavigationTests", dependencies: ["Navigation", "NavigationMacros", "TestSupport"]),
        .testTarget(
            name: "NavigationMacrosTests",
            dependencies: [
                "NavigationMacrosPlugin",
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
            ]),
        .testTarget(
            name: "SampleAppTests",
            dependencies: [
                "SampleApp", "SignInKit", "AccountProtection", "Navigation", "Store", "SQLiteStore", "Secrets", "TestSupport",
                "CoordinatorServer", "CoordinatorTesting",
            ]),
        .testTarget(
            name: "AccountProtectionTests",
            // SignInKit: its `users` table, on both stores, beside the protections it is built on.
            dependencies: ["AccountProtection", "SignInKit", "Navigation", "Store", "SQLiteStore", "PostgresStore", "TestSupport"]),
        .testTarget(
            name: "CoordinatorTestingTests",
            dependencies: ["CoordinatorTesting", "CoordinatorServer", "Navigation", "Store", "SQLiteStore", "Secrets", "Sessions"]),
        .testTarget(
            name: "SessionsTests",
            dependencies: [
                "Sessions", "Navigation", "Store", "SessionStorage", "SQLiteStore", "Secrets", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "CoordinatorServerTests",
            dependencies: ["CoordinatorServer", "HTTPServer", "Sessions", "Navigation", "Secrets", "CMalloc", "TestSupport"]),
        .testTarget(name: "CoordinatorClientTests", dependencies: ["CoordinatorClient", "TestSupport"]),
        // A stand-in for SwiftUI's names (`State`, `Tab`), and a file that imports it beside the client.
        .target(name: "SwiftUI", path: "Tests/SwiftUIStandIn"),
        .testTarget(name: "ClientNamesTests", dependencies: ["CoordinatorClient", "SwiftUI"]),
        .testTarget(name: "IntegrationTests", dependencies: ["TestSupport", "Store", "SQLiteStore", "PostgresStore"]),
    ],
    swiftLanguageModes: [.v6]
)
