// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Greeter",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "coordinatord", path: "../..")],
    targets: [
        // The app: on `CoordinatorApp`, which builds on a Mac too (the server does not).
        .target(
            name: "Greeter",
            dependencies: [
                .product(name: "CoordinatorApp", package: "coordinatord"),
                .product(name: "NavigationMacros", package: "coordinatord"),
                .product(name: "SignInKit", package: "coordinatord"),
            ],
            // The migrations are built into the code: the binary needs nothing beside it.
            exclude: ["Migrations"], plugins: [.plugin(name: "EmbedFiles", package: "coordinatord")]),
        .executableTarget(
            name: "greeter", dependencies: ["Greeter", .product(name: "CoordinatorServer", package: "coordinatord")]),
        // Flow tests, in-process: they run wherever the app builds.
        .testTarget(
            name: "GreeterTests",
            dependencies: ["Greeter", .product(name: "CoordinatorFlowTesting", package: "coordinatord")],
            resources: [.copy("Snapshots")]),
        // The real binary over HTTP: Linux, like the server.
        .testTarget(
            name: "GreeterHTTPTests",
            dependencies: ["Greeter", .product(name: "CoordinatorTesting", package: "coordinatord")]),
    ],
    swiftLanguageModes: [.v6]
)
