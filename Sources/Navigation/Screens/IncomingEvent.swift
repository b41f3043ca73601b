/// An event as a client reports it: the screen it came from, its name and its raw payload.
public struct IncomingEvent: Sendable, Hashable {
    /// The screen the client tapped (it must be the top one).
    public let screen: ScreenID
    /// The event's name.
    public let name: String
    /// The payload as sent, not yet validated.
    public let payload: JSONValue
    /// Set for an effect's result on its way back (never from a client): it goes to the
    /// coordinator that asked, whatever screen is on top.
    package private(set) var delivery: EffectDelivery?

    /// Event `name` from `screen` with `payload`.
    public init(screen: ScreenID, name: String, payload: JSONValue = .null) {
        self.screen = screen
        self.name = name
        self.payload = payload
    }

    /// The event that hands `delivery` to the coordinator that asked for it.
    package init(delivering delivery: EffectDelivery) {
        self.init(screen: "", name: EffectDelivery.eventName, payload: delivery.journaled)
        self.delivery = delivery
    }
}

/// The events every client may send where they apply, because platforms do them natively.
public enum SystemEvent {
    /// Pops the top screen (swipe or back button); only where there is something to pop.
    public static let back = EventDeclaration("back")
    /// Closes the top modal or alert layer (swipe down).
    public static let dismiss = EventDeclaration("dismiss")
    /// Selects a tab of the top tab layer.
    public static let selectTab = EventDeclaration("selectTab", [.string("tab")])

    /// Opens a link (`Route`) from any screen, for an app that declares links; not listed in a
    /// screen's `events`, since every top screen accepts it.
    public static let open = EventDeclaration("open", [.string("link")])

    /// Every system event but `open` (an app's own when it declares links).
    public static let all = [back, dismiss, selectTab]
}

/// A link a flow kept (across sign-in, say) that it could no longer open, and why.
public struct DroppedLink: Sendable, Hashable {
    public let link: String
    public let reason: String
}

/// What applying an event did beyond the tree itself.
public struct EventOutcome: Sendable, Hashable {
    /// The session's token must rotate: the user signed in or out, or changed their password.
    public let credentialsRotated: Bool
    /// Users whose other sessions must end with this event's commit (`Context.endOtherSessions`).
    public let endedSessionsOfUsers: Set<Int64>
    /// A credential for the client to keep for this device and send back (`Device-Token`) with
    /// later events (`Context.giveDeviceToken`), or nil.
    public var deviceToken: String? = nil
    /// Users whose sessions' journals are erased with this event's commit (`Context.forgetUser`).
    public var forgottenUsers: Set<Int64> = []
    /// Texts to erase from every session's journal after this event's commit (`Context.eraseMentions`).
    public var erasedMentions: Set<String> = []
    /// Effects to store with this event's commit and run after it (`Context.perform`).
    public var effects: [RequestedEffect] = []
    /// A link the event's flow kept and could no longer open (`Context.openIfPossible`): its
    /// answer says so.
    public var droppedLink: DroppedLink? = nil

    /// True when the event asked for nothing beyond its tree: no token rotation, no sessions
    /// ended, no device token, no erasure, no effect.
    public var asksNothingElse: Bool {
        !credentialsRotated && endedSessionsOfUsers.isEmpty && deviceToken == nil && forgottenUsers.isEmpty
            && erasedMentions.isEmpty && effects.isEmpty
    }
}
