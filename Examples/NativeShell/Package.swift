// swift-tools-version:6.1
import PackageDescription

// A SwiftUI shell over CoordinatorClient (docs/native-shell.md). Its views compile where SwiftUI
// exists (iOS, macOS); elsewhere the module is empty. The core they use, `ScreenStackModel`, is
// part of CoordinatorClient and tested on Linux with the client.
let package = Package(
    name: "NativeShell",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [.library(name: "NativeShell", targets: ["NativeShell"])],
    dependencies: [.package(name: "coordinatord", path: "../..")],
    targets: [
        .target(name: "NativeShell", dependencies: [.product(name: "CoordinatorClient", package: "coordinatord")])
    ],
    swiftLanguageModes: [.v6]
)
