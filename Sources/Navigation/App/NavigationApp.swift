/// A navigation app: its screens, its coordinator types and how to make the root coordinator.
/// It starts sessions' trees and applies events to them; the trees themselves are plain values.
public struct NavigationApp: Sendable {
    /// Decides, for each event of a signed-in session, whether its user still exists in the
    /// app's store. A snapshot is not trusted on who is signed in: a user deleted meanwhile
    /// signs the session out instead of letting it act as them.
    public typealias UserCheck = @Sendable (SessionUser, Environment) throws -> Bool

    package let screens: [String: ScreenDefinition]
    /// The app's name as its users know it ("Chirp"): clients show it in their title bar.
    public let displayName: String?
    /// The coordinator types snapshots may name.
    public let registry: CoordinatorRegistry
    /// How large one session's tree may grow.
    public let limits: NavigationLimits
    let makeRoot: @Sendable (Platform) -> any Coordinator
    let userExists: UserCheck?
    /// The table of the app's users, when the platform checks them (instead of `userExists`).
    package let userTable: UserTable?
    /// The app's link patterns (`Route`); none unless it declares them.
    public let links: Links
    /// The app's texts in other languages (`translated(_:)`); none unless it declares them.
    public private(set) var translations = Translations()
    /// The mistakes in the app's declarations, one sentence each; empty for a well-defined app.
    /// The server refuses to start with any, and `start` throws them (see `validate()`).
    public let problems: [String]

    /// - Parameters:
    ///   - screens: every screen type a coordinator may show.
    ///   - coordinators: every coordinator type, so that snapshots can name them.
    ///   - limits: how large one session's tree may grow.
    ///   - userExists: checks the signed-in user against the app's store before each event.
    ///   - userTable: the table of the app's users, checked with each event's write instead.
    ///   - root: the root coordinator for a new session (Khanlou's app coordinator);
    ///     its `start` picks the first flow from the session (signed in or not, platform).
    package init(
        displayName: String? = nil, screens: [ScreenDefinition], coordinators: [any Coordinator.Type],
        limits: NavigationLimits = NavigationLimits(), userExists: UserCheck? = nil, userTable: UserTable? = nil,
        links: Links = Links(), root: @escaping @Sendable (Platform) -> any Coordinator
    ) {
        var problems = Self.problems(screens: screens, coordinators: coordinators) + Self.linkProblems(links, screens: screens)
        if let displayName, !ScreenDefinition.isSaid(displayName) {
            problems.insert("the app's display name is empty; leave it out or name the app", at: 0)
        }
        if userExists != nil, userTable != nil {
            problems.append("the app declares both userExists and userTable; the signed-in user is checked one way")
        }
        problems += userTable?.problems ?? []
        self.problems = problems
        self.displayName = displayName
        self.links = links
        self.screens = Dictionary(screens.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.registry = CoordinatorRegistry(coordinators)
        self.limits = limits
        self.userExists = userExists
        self.userTable = userTable
        self.makeRoot = root
    }

    /// - Parameters:
    ///   - displayName: the app's name as its users know it, shown by clients in their title bar.
    ///   - screens: every screen type a coordinator may show; the catalog comes from their types.
    ///     Showing a type not listed here fails that flow; two types with one name are a `problem`.
    ///   - coordinators: every coordinator type, so that snapshots can name them. Starting a type
    ///     not listed here fails that flow; two types with one `typeName` are a `problem`.
    ///   - limits: how large one session's tree may grow.
    ///   - userExists: checks the signed-in user against the app's store before each event.
    ///   - userTable: the table of the app's users, when a user exists exactly while their row does:
    ///     the platform checks it with each event's write, which costs no read (see `UserTable`).
    ///     Declare this or `userExists`, not both.
    ///   - links: the app's link patterns (`Links(AppRoute.self)`): links open the app at a screen.
    ///   - root: the root coordinator for a new session (Khanlou's app coordinator).
    public init(
        displayName: String? = nil, screens: [any ScreenType.Type], coordinators: [any Coordinator.Type],
        limits: NavigationLimits = NavigationLimits(), userExists: UserCheck? = nil, userTable: UserTable? = nil,
        links: Links = Links(), root: @escaping @Sendable (Platform) -> any Coordinator
    ) {
        func definition<S: ScreenType>(_ screen: S.Type) -> ScreenDefinition { S.definition }
        self.init(
            displayName: displayName, screens: screens.map { definition($0) }, coordinators: coordinators, limits: limits,
            userExists: userExists, userTable: userTable, links: links, root: root)
    }

    /// An app whose screens and coordinators are those its root reaches: the root's type, the
    /// `children` it declares, theirs, and each one's `screens`, each type once; plus any
    /// listed in `screens` and `coordinators` (a type started by no declared parent).
    /// - Parameters:
    ///   - displayName: the app's name as its users know it, shown by clients in their title bar.
    ///   - root: the root coordinator for a new session; its type is where the lists start.
    ///   - screens: screen types no declared coordinator shows, if any.
    ///   - coordinators: coordinator types no declared parent starts, if any (their own
    ///     `children` and `screens` are followed too).
    ///   - limits: how large one session's tree may grow.
    ///   - userExists: checks the signed-in user against the app's store before each event.
    ///   - userTable: the table of the app's users (see the init that takes the lists).
    ///   - links: the app's link patterns.
    public init<Root: Coordinator>(
        displayName: String? = nil, reachableFrom root: @escaping @Sendable (Platform) -> Root,
        screens: [any ScreenType.Type] = [], coordinators: [any Coordinator.Type] = [],
        limits: NavigationLimits = NavigationLimits(), userExists: UserCheck? = nil, userTable: UserTable? = nil,
        links: Links = Links()
    ) {
        let reached = Self.reachable(from: [Root.self] + coordinators)
        self.init(
            displayName: displayName, screens: reached.screens + screens, coordinators: reached.coordinators,
            limits: limits, userExists: userExists, userTable: userTable, links: links, root: { root($0) })
    }

    /// The coordinator types `roots` reach through their `children`, and the screens they declare,
    /// each once, in the order first reached.
    static func reachable(from roots: [any Coordinator.Type]) -> (coordinators: [any Coordinator.Type], screens: [any ScreenType.Type]) {
        var coordinators: [any Coordinator.Type] = []
        var screens: [any ScreenType.Type] = []
        var seen: Set<ObjectIdentifier> = []
        var queue = roots
        while !queue.isEmpty {
            let type = queue.removeFirst()
            guard seen.insert(ObjectIdentifier(type)).inserted else { continue }
            coordinators.append(type)
            for screen in type.screens where seen.insert(ObjectIdentifier(screen)).inserted { screens.append(screen) }
            queue += type.children
        }
        return (coordinators, screens)
    }

    /// This app with its texts in other languages: the catalog in each client's language
    /// (`Accept-Language`), and `Context.localized` for what flows write.
    public func translated(_ translations: Translations) -> NavigationApp {
        var app = self
        app.translations = translations
        return app
    }

    /// A new session's tree: the root coordinator started for `platform` and `user`, then `link`
    /// opened when given (a `LinkRejection` when it cannot be). Starting over an existing session
    /// (`continuing`) keeps its id counters, so that no screen, layer or coordinator id is ever
    /// reused within the session.
    public func start(
        platform: Platform, user: SessionUser? = nil, continuing previous: NavigationTree? = nil, link: String? = nil,
        environment: Environment
    ) throws -> NavigationTree {
        if !problems.isEmpty { throw AppDefinitionError(problems: problems) }
        // Parsed first: a link that names nothing costs no flow.
        let opening = try link.map { text throws(LinkRejection) in try links.link(for: text) }
        var tree = NavigationTree(platform: platform, user: user)
        if let previous {
            tree.nextScreen = previous.nextScreen
            tree.nextCoordinator = previous.nextCoordinator
            tree.nextLayer = previous.nextLayer
        }
        let root = makeRoot(platform)
        try registry.check(type(of: root), as: "the root coordinator")
        tree.rootID = tree.nextCoordinator
        tree.nextCoordinator += 1
        tree.nodes[tree.rootID] = CoordinatorNode(
            id: tree.rootID, key: "root", parent: nil, children: [:], home: nil, hasShownScreens: false,
            coordinator: root, encodedState: nil)
        var context = Context(tree: tree, environment: environment, app: self)
        try context.run(tree.rootID) { coordinator, context in try coordinator.start(&context) }
        try settle(&context)
        if let opening {
            try open(opening, &context)
            try settle(&context)
            try limits.check(context.tree)
        }
        try context.checkMisuse()
        return context.tree
    }

    /// Applies `event` to `tree`. On any error (a rejection, or an error thrown by a coordinator
    /// or its environment) `tree` is left exactly as it was. If the signed-in user no longer
    /// exists (`userExists`), the event is not applied: the session starts over signed out.
    /// (A `userTable` is checked by the host, which calls `startOverSignedOut` for a user gone.)
    @discardableResult
    public func apply(_ event: IncomingEvent, to tree: inout NavigationTree, environment: Environment) throws
        -> EventOutcome
    {
        if let user = tree.user, let userExists, try !userExists(user, environment) {
            return try startOverSignedOut(&tree, environment: environment)
        }
        var context = Context(tree: tree, environment: environment, app: self)
        if let delivery = event.delivery {
            // The one that asked, then up its chain (ancestors that finished meanwhile skipped).
            let running = delivery.coordinators.filter { context.tree.nodes[$0] != nil }
            guard !running.isEmpty else { throw EffectUndeliverable() }
            for id in running where context.tree.nodes[id] != nil {
                let handling = try context.run(id) { coordinator, context in
                    try coordinator.effectFinished(delivery.result, &context)
                }
                if case .handled = handling { break }
            }
            return try finishApplying(since: tree, &context, into: &tree)
        }
        guard let topID = tree.topIdentity?.id, event.screen == topID else {
            throw EventRejection.notTopScreen(screen: event.screen, top: tree.topIdentity?.id)
        }
        guard accepts(event.name, in: tree) || (event.name == SystemEvent.open.name && !links.isEmpty) else {
            throw EventRejection.undeclaredEvent(event: event.name, accepted: acceptedEvents(in: tree))
        }
        switch event.name {
        case SystemEvent.back.name:
            try back(&context)
        case SystemEvent.dismiss.name:
            try dismiss(&context)
        case SystemEvent.selectTab.name:
            let payload = try Payload.validate(event.payload, against: SystemEvent.selectTab).get()
            try selectTab(payload.string("tab"), &context)
        // `open` is the system's only in an app that declares links; otherwise a screen may declare its own.
        case SystemEvent.open.name where !links.isEmpty:
            let payload = try Payload.validate(event.payload, against: SystemEvent.open).get()
            try open(links.link(for: payload.string("link")), &context)
        default:
            // The whole screen only here, where the event carries it (the checks above read in place).
            guard let top = tree.top else { throw EventRejection.notTopScreen(screen: event.screen, top: nil) }
            let declaration = screens[top.name]?.event(named: event.name) ?? EventDeclaration(event.name)
            let payload = try Payload.validate(event.payload, against: declaration).get()
            try dispatch(ScreenEvent(screen: top, name: event.name, payload: payload), &context)
        }
        return try finishApplying(since: tree, &context, into: &tree)
    }

    /// What the coordinator that will handle `event` declares it needs (`Coordinator.prepare(for:_:)`),
    /// asked owner first and up the chain; the work it asks for throws as the flow's would
    /// (`PreparationNeeded`, password work), to be done before the run. nil when no coordinator
    /// declares, and for anything but a valid screen event (system events, effect results, an
    /// event `apply` refuses), whose flow runs to find out.
    public func declaredAccess(for event: IncomingEvent, in tree: NavigationTree, environment: Environment) throws
        -> EventAccess?
    {
        let system = SystemEvent.all.contains { $0.name == event.name } || (event.name == SystemEvent.open.name && !links.isEmpty)
        guard event.delivery == nil, !system, let top = tree.top, event.screen == top.id,
            let declaration = screens[top.name]?.event(named: event.name),
            case .success(let payload) = Payload.validate(event.payload, against: declaration)
        else { return nil }
        let screenEvent = ScreenEvent(screen: top, name: event.name, payload: payload)
        let context = Context(tree: tree, environment: environment, app: self)
        var current: CoordinatorID? = top.owner
        while let id = current, let node = tree.nodes[id] {
            if let access = try node.coordinator.prepare(for: screenEvent, context) { return access }
            current = node.parent
        }
        return nil
    }

    /// The end of every event: finished children reported, the uncovered screen told, the
    /// limits checked; then `tree` takes the result.
    private func finishApplying(since before: NavigationTree, _ context: inout Context, into tree: inout NavigationTree)
        throws -> EventOutcome
    {
        try settle(&context)
        try revealed(since: before, &context)
        try limits.check(context.tree)
        try context.checkMisuse()
        tree = context.tree
        tree.noteTopLink(links)
        return EventOutcome(
            credentialsRotated: context.credentialsRotated, endedSessionsOfUsers: context.endedSessionsOfUsers,
            deviceToken: context.deviceToken, forgottenUsers: context.forgottenUsers,
            erasedMentions: context.erasedMentions, effects: context.effects, droppedLink: context.droppedLink)
    }

    /// What an event of a session whose user no longer exists does instead of its own flow: the
    /// session starts over signed out, with new credentials.
    package func startOverSignedOut(_ tree: inout NavigationTree, environment: Environment) throws -> EventOutcome {
        tree = try start(platform: tree.platform, continuing: tree, environment: environment)
        return EventOutcome(credentialsRotated: true, endedSessionsOfUsers: [])
    }

    /// The events the top screen accepts now: its declared ones, then the system events that apply.
    public func acceptedEvents(in tree: NavigationTree) -> [String] {
        guard let index = tree.topLayerIndex, let top = tree.layers[index].topVisibleIdentity else { return [] }
        let layer = tree.layers[index]
        var names = screens[top.name]?.events.map(\.name) ?? []
        for name in Self.layerEvents where Self.layer(layer, accepts: name) { names.append(name) }
        return names
    }

    /// Whether `acceptedEvents(in: tree)` holds `name`, without listing them.
    private func accepts(_ name: String, in tree: NavigationTree) -> Bool {
        guard let index = tree.topLayerIndex, let top = tree.layers[index].topVisibleIdentity else { return false }
        return Self.layer(tree.layers[index], accepts: name) || screens[top.name]?.events.contains { $0.name == name } == true
    }

    /// The system events that apply depending on the top layer, in the order they are listed.
    private static let layerEvents = [SystemEvent.back.name, SystemEvent.dismiss.name, SystemEvent.selectTab.name]

    /// Whether the system event `name` applies on `layer`, the top one: `back` over a screen below,
    /// `dismiss` off the root, `selectTab` among tabs. False for any other name.
    private static func layer(_ layer: Layer, accepts name: String) -> Bool {
        switch name {
        case SystemEvent.back.name: layer.visibleScreens.count > 1
        case SystemEvent.dismiss.name: layer.presentation != .root
        case SystemEvent.selectTab.name: layer.isTabs
        default: false
        }
    }

    // MARK: - Routing

    /// The coordinating-responder chain: the screen's owner first, then each ancestor.
    private func dispatch(_ event: ScreenEvent, _ context: inout Context) throws {
        var current: CoordinatorID? = event.screen.owner
        while let id = current {
            let handling = try context.run(id) { coordinator, context in try coordinator.handle(event, &context) }
            if case .handled = handling { return }
            current = context.tree.nodes[id]?.parent
        }
        throw EventRejection.unhandled(event: event.name)
    }

    /// Tells the owner of the top screen when the event uncovered it (it was there before, not on top).
    private func revealed(since before: NavigationTree, _ context: inout Context) throws {
        guard let top = context.tree.top, top.id != before.topIdentity?.id, before.screen(top.id) != nil,
            context.tree.nodes.index(forKey: top.owner) != nil
        else { return }
        try context.run(top.owner) { coordinator, context in try coordinator.screenAppeared(top, &context) }
        try settle(&context)
    }

    /// Removes finished coordinators (telling their parents), then any coordinator whose
    /// screens are all gone, until nothing changes; then drops empty layers.
    func settle(_ context: inout Context) throws {
        while true {
            if !context.finished.isEmpty {
                let (id, output) = context.finished.removeFirst()
                guard let node = context.tree.nodes[id], let parent = node.parent else { continue }
                let finishing = type(of: node.coordinator).typeName
                if let by = output.coordinatorType, by != finishing {
                    // `finish` was called on a coordinator value other than the one being run.
                    throw NavigationError("\(finishing) finished with the output of \(by)")
                }
                context.tree.removeSubtree(id)
                try context.run(parent) { coordinator, context in
                    try coordinator.childFinished(ChildKey(node.key), output: output, &context)
                }
                continue
            }
            guard let deepest = context.tree.deepestOrphan() else { break }
            context.finished.append((deepest, .cancelled))
        }
        context.tree.pruneEmptyLayers()
        guard context.tree.topLayerIndex != nil else { throw NavigationError("the flow left no screen to show") }
    }
}
