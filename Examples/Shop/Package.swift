// swift-tools-version:6.1
import PackageDescription

// A second app on coordinatord: a shop with onboarding, a catalogue pushing without end, a cart,
// and a checkout presented modally. It depends on coordinatord by a relative path, as an app
// team's own package would depend on a released coordinatord.
let package = Package(
    name: "Shop",
    platforms: [.macOS(.v14)],
    products: [.executable(name: "shop", targets: ["shop"])],
    dependencies: [.package(name: "coordinatord", path: "../..")],
    targets: [
        .target(
            name: "ShopApp",
            dependencies: [.product(name: "CoordinatorServer", package: "coordinatord")],
            resources: [.copy("Migrations")]),
        .executableTarget(name: "shop", dependencies: ["ShopApp", .product(name: "CoordinatorServer", package: "coordinatord")]),
        .testTarget(
            name: "ShopAppTests",
            dependencies: ["ShopApp", .product(name: "CoordinatorTesting", package: "coordinatord")]),
    ],
    swiftLanguageModes: [.v6]
)
