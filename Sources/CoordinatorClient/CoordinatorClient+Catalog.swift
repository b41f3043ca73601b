import Foundation

extension CoordinatorSession {
    /// The screen catalog, read once and kept; `reload` asks the server again (with the kept
    /// `ETag` when it sent one, so an unchanged catalog costs a `304`).
    public func catalog(reload: Bool = false) async throws -> Catalog {
        if let cachedCatalog, !reload { return cachedCatalog }
        var headers = ["Accept": "application/json"]
        if let etag = cachedCatalog?.etag { headers["If-None-Match"] = etag }
        let response = try await exchange(HTTPRequest(method: "GET", url: url("/v1/screens"), headers: headers), accepting: [304])
        if response.status == 304, let cachedCatalog { return cachedCatalog }
        var catalog: Catalog
        do {
            catalog = try JSONDecoder().decode(Catalog.self, from: response.body)
        } catch {
            throw CoordinatorClientError.unexpectedAnswer(
                status: response.status, body: String(decoding: response.body.prefix(200), as: UTF8.self))
        }
        catalog.etag = response.headers["etag"]
        cachedCatalog = catalog
        return catalog
    }
}
