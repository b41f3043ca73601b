import CoordinatorServer
import Navigation
import Store

// A test-only app whose flows fail the ways an app's flows can, served by the server library like
// any app (IntegrationTests' FlowErrorTests start it): see `NotesCoordinator`.
await CoordinatorServer.main(
    ServedApp(
        name: "notes", navigation: Notes.navigation, migrations: { Notes.migrations(for: $0) },
        environment: { _ in
            { connection, _, _ in
                var environment = Environment()
                environment.set(NoteStore(connection: connection))
                return environment
            }
        }))
