// swift-tools-version:6.1
import PackageDescription

// A second app on coordinatord: a shop with onboarding, a catalogue pushing without end, a cart,
// and a checkout presented modally. It depends on coordinatord by a relative path, as an app
// team's own package would depend on a released coordinatord.
let package = Package(
    name: "Shop",
    platforms: [.macOS(.v14)],
    products: [.executable(name: "shop", targets: ["shop"])],
    dependencies: [
        .package(name: "coordinatord", path: "../.."),
        // The shop's own settings (`--payment-service`), declared as coordinatord declares its own.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .target(
            name: "ShopApp",
            dependencies: [
                .product(name: "CoordinatorServer", package: "coordinatord"),
                .product(name: "SignInKit", package: "coordinatord"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // The migrations are built into the code: the binary needs nothing beside it.
            exclude: ["Migrations"], plugins: [.plugin(name: "EmbedFiles", package: "coordinatord")]),
        .executableTarget(name: "shop", dependencies: ["ShopApp", .product(name: "CoordinatorServer", package: "coordinatord")]),
        .testTarget(
            name: "ShopAppTests",
            dependencies: ["ShopApp", .product(name: "CoordinatorTesting", package: "coordinatord")]),
    ],
    swiftLanguageModes: [.v6]
)
