import CoordinatorServer
import Foundation
import Navigation

// A test-only app in three builds of one coordinator (IntegrationTests' DeployCheckTests): `v1`,
// and `v2` whose coordinator gained a field, without (`v2`) or with (`v2-migrating`) a migration
// from the v1 form. `DEPLOY_CHECK_VARIANT` picks the build.
let variant = ProcessInfo.processInfo.environment["DEPLOY_CHECK_VARIANT"] ?? "v1"
await CoordinatorServer.main(
    ServedApp(
        name: "counter", navigation: Counter.navigation(variant), migrations: { _ in [] },
        environment: { _ in { _, _, _ in Environment() } }))
