// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Greeter",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "coordinatord", path: "../..")],
    targets: [
        .target(
            name: "Greeter",
            dependencies: [
                .product(name: "CoordinatorServer", package: "coordinatord"),
                .product(name: "NavigationMacros", package: "coordinatord"),
            ],
            // The migrations are built into the code: the binary needs nothing beside it.
            exclude: ["Migrations"], plugins: [.plugin(name: "EmbedFiles", package: "coordinatord")]),
        .executableTarget(name: "greeter", dependencies: ["Greeter"]),
        .testTarget(
            name: "GreeterTests",
            dependencies: ["Greeter", .product(name: "CoordinatorTesting", package: "coordinatord")],
            resources: [.copy("Snapshots")]),
    ],
    swiftLanguageModes: [.v6]
)
