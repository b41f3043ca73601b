/// Steps of the shipped app's flows, shared by the integration tests.
public enum Journey {
    public static let password = "correct horse battery staple"

    /// Registers `email` through the three-step flow from `firstRun`; the session ends signed in.
    public static func register(_ client: inout SessionClient, email: String, displayName: String) async throws {
        try await expect200(client.send("signUp"))
        try await expect200(client.send("next", ["email": email]))
        try await expect200(client.send("next", ["password": password]))
        try await expect200(client.send("finish", ["displayName": displayName]))
    }

    /// Signs in from `firstRun` (or `login`) and returns the answer.
    public static func signIn(_ client: inout SessionClient, email: String, password: String = password) async throws
        -> TestResponse
    {
        if client.topScreen.name == "firstRun" { try await expect200(client.send("logIn")) }
        return try await client.send("submit", ["email": email, "password": password])
    }

    public static func expect200(_ response: TestResponse) throws {
        guard response.status == 200 else {
            throw TestClientError(description: "expected 200, got \(response.status): \(response.text)")
        }
    }
}
