import CoordinatorServer
import Foundation
import Navigation
import Store

// A test-only app in three builds of one coordinator (IntegrationTests' DeployCheckTests): `v1`,
// and `v2` whose coordinator gained a field, without (`v2`) or with (`v2-migrating`) a migration
// from the v1 form; `v1-tallies-twice`, today's coordinator writing each increment's tally twice.
// `DEPLOY_CHECK_VARIANT` picks the build. Each increment writes a tally (a model write).
let variant = ProcessInfo.processInfo.environment["DEPLOY_CHECK_VARIANT"] ?? "v1"
await CoordinatorServer.main(
    ServedApp(
        name: "counter", navigation: Counter.navigation(variant),
        migrations: { _ in
            [Migration(scope: "counter", version: 1, name: "tallies", sql: "CREATE TABLE tallies (at BIGINT NOT NULL)")]
        },
        environment: { _ in
            { connection, _, request in
                var environment = Environment()
                environment.set(Tallies(connection: connection, now: request.now))
                return environment
            }
        }))
