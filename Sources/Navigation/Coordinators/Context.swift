/// What a coordinator may do while it runs: navigate, reach its environment, start and stop
/// children, finish, sign the session in or out. Every operation acts for `coordinatorID`,
/// the coordinator being run; the runtime passes a context to each coordinator call.
public struct Context {
    var tree: NavigationTree
    /// The dependencies of this event (the app's models, what was prepared).
    public let environment: Environment
    /// The coordinator this context acts for.
    public internal(set) var coordinatorID: CoordinatorID
    var finished: [(CoordinatorID, ChildOutput)] = []
    /// Set when the signed-in user changed or a flow asked for it; the session rotates its token.
    var credentialsRotated = false
    /// Users whose other sessions end when this event commits.
    var endedSessionsOfUsers: Set<Int64> = []
    /// Users whose sessions' journals are erased when this event commits.
    var forgottenUsers: Set<Int64> = []
    /// Texts the journal erases from every session after this event commits.
    var erasedMentions: Set<String> = []
    /// Effects stored with this event's commit, run after it (`perform`).
    var effects: [RequestedEffect] = []
    /// A link a flow kept and could no longer open (`openIfPossible`).
    var droppedLink: DroppedLink?
    /// The app's screens and coordinator types: only those may be shown and started.
    private let screens: [String: ScreenDefinition]
    private let registry: CoordinatorRegistry
    /// The app's links: a screen made with typed props gets its canonical link at once.
    let links: Links
    /// The app's texts in other languages (`localized`).
    private let translations: Translations
    /// A screen the app does not list, shown by an operation that cannot throw (`present`,
    /// `setRoot`): the coordinator call that did it fails as it returns.
    private var misuse: NavigationError?
    /// A credential the answer hands the client to keep for this device (`giveDeviceToken`).
    var deviceToken: String?

    init(tree: NavigationTree, environment: Environment, app: NavigationApp) {
        self.tree = tree
        self.environment = environment
        self.coordinatorID = tree.rootID
        self.screens = app.screens
        self.registry = app.registry
        self.links = app.links
        self.translations = app.translations
    }

    // MARK: Session

    /// The kind of client the session was created for.
    public var platform: Platform { tree.platform }
    /// True when the running coordinator was started on a tab's stack or on a modal layer that
    /// it or one of its ancestors owns (its own `Placement.tab` or `.modal`, or a parent's); false
    /// on the root stack, or on what a coordinator that is finishing left (a sign-out's tabs). A
    /// flow that is the whole app at times (sign-in) replaces every layer then, and only pushes here.
    public var startedInTabOrModal: Bool {
        guard let home = tree.nodes[coordinatorID]?.home, let layer = tree.layers.first(where: { $0.id == home.layer }),
            home.tab != nil || layer.presentation == .modal
        else { return false }
        var ancestor: CoordinatorID? = coordinatorID
        while let id = ancestor, let node = tree.nodes[id] {
            if id == layer.owner { return true }
            ancestor = node.parent
        }
        return false
    }
    /// The signed-in user, if any.
    public var user: SessionUser? { tree.user }
    /// The language of the client that sent this event (its `Accept-Language`, among the app's
    /// `Translations`); the app's source language when it named none the app has.
    public var language: String { environment[EventLanguage.self]?.tag ?? translations.source }

    /// `text` in this event's language, from the app's `Translations`; as written when there is
    /// no translation. What a flow writes for people (a screen's error) goes through here.
    public func localized(_ text: String) -> String { translations.text(text, in: language) }

    /// Signs the session in as `user`; the session's token rotates.
    public mutating func signIn(_ user: SessionUser) {
        tree.user = user
        credentialsRotated = true
    }

    /// Signs the session out; the session's token rotates.
    public mutating func signOut() {
        tree.user = nil
        credentialsRotated = true
    }

    /// Updates what the state shows of the signed-in user (a new display name).
    public mutating func updateUser(_ user: SessionUser) {
        tree.user = user
    }

    /// Asks for a new session token (after a password change).
    public mutating func rotateCredentials() {
        credentialsRotated = true
    }

    /// Ends every session of user `id` except this one, in the same commit as this event
    /// (sign out everywhere; after a password change or an account deletion). Their tokens die.
    public mutating func endOtherSessions(ofUser id: Int64) {
        endedSessionsOfUsers.insert(id)
    }

    /// Erases user `id` from the sessions' history in the same commit as this event: the whole
    /// journal of every session the user was ever signed in to, this one included, even one that
    /// has signed out or ended since (an account deletion; pair it with `endOtherSessions`).
    public mutating func forgetUser(_ id: Int64) {
        forgottenUsers.insert(id)
    }

    /// Erases what *other* sessions were shown of a deleted user from their journals: every
    /// entry whose snapshot or payload holds one of `texts` (her display name, her e-mail, the
    /// text of her posts) loses that snapshot (its past State is no longer retained) or payload.
    /// Asked with this event's commit, done by the sweeps that follow it (every
    /// `--sweep-interval`); pair it with `forgetUser`. Texts shorter than 3 characters are ignored:
    /// they would match nearly everything.
    public mutating func eraseMentions(_ texts: [String]) {
        erasedMentions.formUnion(texts.filter { $0.count >= 3 })
    }

    /// Asks for `effect` to run after this event commits: the request is stored in the same
    /// commit (so it runs only if the event stands, and surely if it does), run at least once by
    /// the app's handler for its type, and its result handed to this coordinator's
    /// `effectFinished` as an event of the session (passed up the chain when it does not handle it,
    /// or has finished by then). A flow that must have an answer before it can
    /// decide (a price) shows a screen that waits for it.
    public mutating func perform<E: Effect>(_ effect: E) throws {
        var chain = [coordinatorID]
        while let parent = tree.nodes[chain[chain.count - 1]]?.parent { chain.append(parent) }
        effects.append(RequestedEffect(name: E.name, request: try JSONValue.encode(effect), coordinators: chain))
    }

    /// Hands the client `token` to keep for this device: the event's answer carries it as
    /// `deviceToken`, and the client sends it back as the `Device-Token` header of later events
    /// (the host gives flows that header). For an app's own device credentials, such as OWASP's
    /// device cookies; it is never part of the session's state.
    public mutating func giveDeviceToken(_ token: String) {
        deviceToken = token
    }

    // MARK: Screens

    /// The screens this coordinator has on screen, bottom to top.
    public var ownScreens: [Screen] { tree.allScreens.filter { $0.owner == coordinatorID } }

    /// The current props of screen `id`.
    package func props(of id: ScreenID) -> [String: JSONValue]? { tree.screen(id)?.props }

    /// Pushes a screen onto this coordinator's stack.
    @discardableResult
    package mutating func push(
        _ definition: ScreenDefinition, _ props: [String: JSONValue] = [:], link: CanonicalLink = .unknown
    ) throws -> ScreenID {
        try push(definition, propsJSON: JSONValue.object(props).serialized(), link: link)
    }

    /// Pushes a screen showing props already serialized (canonically).
    mutating func push(_ definition: ScreenDefinition, propsJSON: [UInt8], link: CanonicalLink) throws -> ScreenID {
        let screen = makeScreen(definition, propsJSON, link: link)
        try checkMisuse()
        if let stack = currentStack() {
            try tree.withStack(stack) { $0.append(screen) }
        } else {
            tree.layers.append(
                Layer(id: tree.makeLayerID(), presentation: .root, owner: tree.rootID, screens: [screen]))
        }
        return screen.id
    }

    /// Pops the top screen of this coordinator's stack.
    public mutating func pop() throws {
        guard let stack = currentStack() else { throw NavigationError("nothing to pop") }
        try tree.withStack(stack) { screens in
            guard screens.count > 1 else { throw NavigationError("cannot pop the last screen of a stack") }
            screens.removeLast()
        }
    }

    /// Pops every screen above the first one of this coordinator's stack.
    public mutating func popToRoot() throws {
        guard let stack = currentStack() else { throw NavigationError("nothing to pop") }
        try tree.withStack(stack) { screens in screens.removeSubrange(min(1, screens.count)...) }
    }

    /// Pops every screen above `id` on the stack that holds it.
    public mutating func popTo(_ id: ScreenID) throws {
        guard let stack = stackHolding(id) else { throw NavigationError("no screen \(id)") }
        try tree.withStack(stack) { screens in
            if let index = screens.firstIndex(where: { $0.id == id }) { screens.removeSubrange((index + 1)...) }
        }
    }

    /// Changes the props of screen `id` (an `error` message, new field values).
    package mutating func updateProps(_ id: ScreenID, _ change: (inout [String: JSONValue]) -> Void) throws {
        try updateScreen(id) { change(&$0.props) }
    }

    /// Replaces the props of screen `id` with props already serialized (canonically).
    mutating func updateProps(_ id: ScreenID, propsJSON: [UInt8]) throws {
        try updateScreen(id) { $0.setPropsJSON(propsJSON) }
    }

    private mutating func updateScreen(_ id: ScreenID, _ change: (inout Screen) -> Void) throws {
        guard let stack = stackHolding(id) else { throw NavigationError("no screen \(id)") }
        try tree.withStack(stack) { screens in
            if let index = screens.firstIndex(where: { $0.id == id }) { change(&screens[index]) }
        }
    }

    // MARK: Layers

    /// Presents a screen on a new layer over everything (a modal sheet, or an alert).
    @discardableResult
    package mutating func present(
        _ definition: ScreenDefinition, _ props: [String: JSONValue] = [:], as presentation: Presentation = .modal,
        link: CanonicalLink = .unknown
    ) -> ScreenID {
        present(definition, propsJSON: JSONValue.object(props).serialized(), as: presentation, link: link)
    }

    /// Presents a screen showing props already serialized (canonically).
    mutating func present(
        _ definition: ScreenDefinition, propsJSON: [UInt8], as presentation: Presentation, link: CanonicalLink
    ) -> ScreenID {
        let screen = makeScreen(definition, propsJSON, link: link)
        tree.layers.append(
            Layer(id: tree.makeLayerID(), presentation: presentation == .root ? .modal : presentation,
                owner: coordinatorID, screens: [screen]))
        return screen.id
    }

    /// Dismisses the topmost layer this coordinator presented, with every layer above it.
    public mutating func dismiss() throws {
        guard let index = tree.layers.lastIndex(where: { $0.owner == coordinatorID && $0.presentation != .root }) else {
            throw NavigationError("\(tree.nodes[coordinatorID]?.typeName ?? "?") presented nothing to dismiss")
        }
        tree.layers.removeSubrange(index...)
    }

    /// Replaces every layer with a root stack holding one screen (auth flow → main, and back).
    @discardableResult
    package mutating func setRoot(
        _ definition: ScreenDefinition, _ props: [String: JSONValue] = [:], link: CanonicalLink = .unknown
    ) -> ScreenID {
        setRoot(definition, propsJSON: JSONValue.object(props).serialized(), link: link)
    }

    /// Replaces every layer with a root stack holding one screen showing props already serialized.
    mutating func setRoot(_ definition: ScreenDefinition, propsJSON: [UInt8], link: CanonicalLink) -> ScreenID {
        let screen = makeScreen(definition, propsJSON, link: link)
        tree.layers = [Layer(id: tree.makeLayerID(), presentation: .root, owner: coordinatorID, screens: [screen])]
        return screen.id
    }

    /// Replaces every layer with a root tab container owned by this coordinator; its children
    /// fill the tabs by starting with `.tab(name)`.
    public mutating func setRootTabs(_ tabs: [TabSpec], selected: TabKey) {
        tree.layers = [
            Layer(
                id: tree.makeLayerID(), presentation: .root, owner: coordinatorID, screens: [],
                tabs: tabs.map { Tab(name: $0.name.rawValue, title: $0.title, screens: []) }, selectedTab: selected.rawValue)
        ]
    }

    /// Selects a tab of the tab layer this coordinator owns.
    public mutating func selectTab(_ name: TabKey) throws {
        guard let index = tree.layers.lastIndex(where: { $0.owner == coordinatorID && $0.isTabs }),
            tree.layers[index].tabs?.contains(where: { $0.name == name.rawValue }) == true
        else { throw NavigationError("no tab \(name)") }
        tree.layers[index].selectedTab = name.rawValue
    }

    // MARK: Children

    /// True while a child started under `key` runs.
    public func hasChild(_ key: ChildKey) -> Bool { tree.nodes[coordinatorID]?.children[key.rawValue] != nil }

    /// Starts a child coordinator under `key` and runs its `start`.
    public mutating func startChild(_ key: ChildKey, _ child: some Coordinator, placement: Placement = .current) throws {
        guard !hasChild(key) else { throw NavigationError("a child \(key) is already running") }
        try registry.check(type(of: child), as: "child coordinator \(key)")
        let home: StackRef?
        switch placement {
        case .current:
            home = currentStack()
        case .tab(let tab):
            guard let layer = tree.layers.last(where: { $0.owner == coordinatorID && $0.isTabs }),
                layer.tabs?.contains(where: { $0.name == tab.rawValue }) == true
            else { throw NavigationError("no tab \(tab) to start \(key) in") }
            home = StackRef(layer: layer.id, tab: tab.rawValue)
        case .modal:
            let layer = Layer(id: tree.makeLayerID(), presentation: .modal, owner: tree.nextCoordinator, screens: [])
            tree.layers.append(layer)
            home = StackRef(layer: layer.id, tab: nil)
        }
        let id = tree.nextCoordinator
        tree.nextCoordinator += 1
        tree.nodes[id] = CoordinatorNode(
            id: id, key: key.rawValue, parent: coordinatorID, children: [:], home: home, hasShownScreens: false,
            coordinator: child, encodedState: nil)
        tree.nodes[coordinatorID]?.children[key.rawValue] = id
        try run(id) { coordinator, context in try coordinator.start(&context) }
    }

    /// Stops the child under `key` at once, with its descendants and all their screens.
    /// Its parent is not told (it asked).
    public mutating func stopChild(_ key: ChildKey) {
        if let id = tree.nodes[coordinatorID]?.children[key.rawValue] { tree.removeSubtree(id) }
    }

    /// Finishes the coordinator being run with `output`; a coordinator calls its typed
    /// `finish(_:_:)`, which comes here.
    mutating func finish(_ output: ChildOutput) {
        finished.append((coordinatorID, output))
    }

    // MARK: Internals

    /// Runs `body` on coordinator `id` with this context acting for it, then stores it back with
    /// its encoding: both or, when it fails to encode, neither (the error fails the event).
    mutating func run<T>(_ id: CoordinatorID, _ body: (inout any Coordinator, inout Context) throws -> T) throws -> T {
        guard var coordinator = tree.nodes[id]?.coordinator else { throw NavigationError("no coordinator \(id)") }
        let previous = coordinator
        let caller = coordinatorID
        coordinatorID = id
        defer { coordinatorID = caller }
        let result = try body(&coordinator, &self)
        try checkMisuse()
        // The body may have removed the node (a child that finished, say).
        guard let index = tree.nodes.index(forKey: id) else { return result }
        // In place: a copy of the node out and back retained and released each of its fields.
        try tree.nodes.values[index].replaceCoordinator(with: coordinator, previous: previous)
        return result
    }

    /// Throws the misuse a non-throwing operation noted, if any.
    func checkMisuse() throws {
        if let misuse { throw misuse }
    }

    private mutating func makeScreen(_ definition: ScreenDefinition, _ propsJSON: [UInt8], link: CanonicalLink)
        -> Screen
    {
        if misuse == nil { misuse = NavigationApp.unregistered(definition, in: screens) }
        tree.markShown(coordinatorID)
        return Screen(id: tree.makeScreenID(), name: definition.name, propsJSON: propsJSON, owner: coordinatorID, link: link)
    }

    /// Where this coordinator's next screen goes: the stack of its topmost screen, else its home,
    /// else (walking up) its ancestors', else the top of the presentation.
    private func currentStack() -> StackRef? {
        var current: CoordinatorID? = coordinatorID
        while let id = current, let node = tree.nodes[id] {
            if let stack = tree.topmostStack(of: id) { return stack }
            if let home = node.home, tree.exists(home) { return home }
            current = node.parent
        }
        return tree.topStack
    }

    private func stackHolding(_ id: ScreenID) -> StackRef? {
        for layer in tree.layers {
            if layer.screens.contains(where: { $0.id == id }) { return StackRef(layer: layer.id, tab: nil) }
            if let tab = layer.tabs?.first(where: { $0.screens.contains { $0.id == id } }) {
                return StackRef(layer: layer.id, tab: tab.name)
            }
        }
        return nil
    }
}
