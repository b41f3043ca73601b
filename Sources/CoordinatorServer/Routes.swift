import ArgumentParser
import Foundation
import Logging
import Prometheus

/// `routes`: prints every route the router serves, one `METHOD /pattern` a line.
struct Routes: AppCommand {
    static let configuration = CommandConfiguration(abstract: "Print every route the server serves.")

    func run(_ app: ServedApp) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coordinatord-routes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let options = try Serve.parse(["--database", folder.appendingPathComponent("routes.sqlite").path])
        let application = try Application(
            app, options, settings: app.parseSettings([]), registry: PrometheusCollectorRegistry(), logger: Logger(label: "routes"))
        for route in application.router.routes { print("\(route.method) \(route.pattern)") }
        await application.store.close()
    }
}
