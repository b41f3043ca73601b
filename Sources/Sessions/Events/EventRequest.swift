import Navigation

/// An event as the REST layer hands it over.
///
/// A class, though a value: the event's stages capture it in closures and async frames, and
/// each copy of a struct of ten strings retained every one of them (a quarter of an event's
/// string retains, callgrind). Immutable, so shared freely.
package final class EventRequest: Sendable {
    let sessionID: String
    let token: String?
    let event: IncomingEvent
    /// The version `If-Match` names, if the header was sent; nil inside means "matches nothing".
    let ifMatch: Int??
    let idempotencyKey: String?
    /// SHA-256 of the request body, to tell a retry from a different request with the same key
    /// (empty without a key: nothing compares it).
    let requestHash: [UInt8]
    let clientAddress: String
    /// The `Device-Token` header: a credential a flow gave this device in an earlier answer.
    let deviceToken: String?
    /// The language the client asked for, among the app's (`Accept-Language`).
    let language: String?

    package init(
        sessionID: String, token: String?, event: IncomingEvent, ifMatch: Int??, idempotencyKey: String?,
        requestHash: [UInt8], clientAddress: String, deviceToken: String? = nil, language: String? = nil
    ) {
        self.sessionID = sessionID
        self.token = token
        self.event = event
        self.ifMatch = ifMatch
        self.idempotencyKey = idempotencyKey
        self.requestHash = requestHash
        self.clientAddress = clientAddress
        self.deviceToken = deviceToken
        self.language = language
    }
}
