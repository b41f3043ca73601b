// swift-tools-version:6.1
// The peer of `make bench`: what a good Swift team would write instead of coordinatord, a
// Hummingbird 2 server over GRDB 7 that stores each session's navigation stack as Codable JSON
// in a row and applies one navigation event per write transaction. Built only by `make bench`.
import PackageDescription

let package = Package(
    name: "peer",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
    ],
    targets: [
        .executableTarget(
            name: "Peer",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
