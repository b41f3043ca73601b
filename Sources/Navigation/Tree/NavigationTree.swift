/// A session's whole navigation state: its layers of screens, its coordinator tree, its user and
/// the counters that keep ids unique. A plain value: copy it, compare it, snapshot it.
public struct NavigationTree: Sendable, Equatable {
    public internal(set) var platform: Platform
    public internal(set) var user: SessionUser?
    /// Layer 0 is the root; each later one is presented over the one before.
    public internal(set) var layers: [Layer] = []
    var nodes: [CoordinatorID: CoordinatorNode] = [:]
    var rootID: CoordinatorID = 0
    var nextScreen = 1
    var nextCoordinator = 1
    var nextLayer = 1

    init(platform: Platform, user: SessionUser?) {
        self.platform = platform
        self.user = user
    }

    /// The layer that is shown on top (empty layers are skipped).
    var topLayerIndex: Int? {
        layers.lastIndex { $0.showsScreen }
    }

    /// The one screen that accepts events now.
    public var top: Screen? {
        topLayerIndex.flatMap { layers[$0].topVisibleScreen }
    }

    /// The top screen's id and name, without a copy of the whole screen (`top` makes one).
    package var topIdentity: (id: ScreenID, name: String)? {
        topLayerIndex.flatMap { layers[$0].topVisibleIdentity }
    }

    /// Notes the top screen's canonical link when it is not known yet (restored from a snapshot,
    /// or its props changed), so that the answers after this one need not find it again.
    mutating func noteTopLink(_ links: Links) {
        guard !links.isEmpty, let top, case .unknown = top.link, let index = topLayerIndex else { return }
        let link = links.canonicalLink(of: top).map(CanonicalLink.known) ?? .absent
        let layer = layers[index]
        // The top screen's stack exists (it holds `top`), so this cannot throw.
        try? withStack(StackRef(layer: layer.id, tab: layer.isTabs ? layer.selectedTab : nil)) { $0[$0.count - 1].link = link }
    }

    /// Every screen in every layer and tab.
    public var allScreens: [Screen] { layers.flatMap(\.allScreens) }

    /// How many screens `allScreens` holds, counted without gathering them (the limits check it every event).
    package var screenCount: Int { layers.reduce(0) { $0 + $1.screenCount } }

    /// A close guess at the bytes of this tree's snapshot or State: its screens' props, which are
    /// most of either, and some for the rest. JSON written into a buffer this size is rarely
    /// copied into a larger one on the way (the props of a user's page alone are several KB).
    var estimatedJSONBytes: Int {
        layers.reduce(1024) { $0 + $1.estimatedJSONBytes } + 256 * nodes.count
    }

    /// The screen with `id`, wherever it is.
    public func screen(_ id: ScreenID) -> Screen? {
        // Stack by stack: gathering every screen into one array first copied them all.
        for layer in layers {
            if let tabs = layer.tabs {
                for tab in tabs {
                    if let screen = tab.screens.first(where: { $0.id == id }) { return screen }
                }
            } else if let screen = layer.screens.first(where: { $0.id == id }) {
                return screen
            }
        }
        return nil
    }

    /// How many coordinators the tree holds.
    public var coordinatorCount: Int { nodes.count }

    /// The running coordinators of type `C`, root first (then by the order they started): for a
    /// test's look at a coordinator's state.
    public func coordinators<C: Coordinator>(of type: C.Type) -> [C] {
        nodes.keys.sorted().compactMap { nodes[$0]?.coordinator as? C }
    }

    // MARK: - Internal helpers used by Context and the runtime

    mutating func makeScreenID() -> ScreenID {
        defer { nextScreen += 1 }
        return ScreenID("s\(nextScreen)")
    }

    mutating func makeLayerID() -> LayerID {
        defer { nextLayer += 1 }
        return nextLayer
    }

    /// The stack holding the topmost screen `owner` has on screen, if any.
    func topmostStack(of owner: CoordinatorID) -> StackRef? {
        for layer in layers.reversed() {
            if layer.screens.contains(where: { $0.owner == owner }) { return StackRef(layer: layer.id, tab: nil) }
            let tabs = (layer.tabs ?? []).sorted { lhs, _ in lhs.name == layer.selectedTab }
            if let tab = tabs.first(where: { $0.screens.contains { $0.owner == owner } }) {
                return StackRef(layer: layer.id, tab: tab.name)
            }
        }
        return nil
    }

    /// The visible stack of the top layer.
    var topStack: StackRef? {
        guard let layer = layers.last else { return nil }
        return StackRef(layer: layer.id, tab: layer.isTabs ? layer.selectedTab : nil)
    }

    func exists(_ stack: StackRef) -> Bool {
        guard let layer = layers.first(where: { $0.id == stack.layer }) else { return false }
        guard let tab = stack.tab else { return !layer.isTabs }
        return layer.tabs?.contains { $0.name == tab } ?? false
    }

    /// Runs `body` on the screens of `stack`.
    mutating func withStack<T>(_ stack: StackRef, _ body: (inout [Screen]) throws -> T) throws -> T {
        guard let layerIndex = layers.firstIndex(where: { $0.id == stack.layer }) else {
            throw NavigationError("layer \(stack.layer) is gone")
        }
        guard let tab = stack.tab else { return try body(&layers[layerIndex].screens) }
        guard let tabIndex = layers[layerIndex].tabs?.firstIndex(where: { $0.name == tab }) else {
            throw NavigationError("no tab \(tab)")
        }
        return try body(&layers[layerIndex].tabs![tabIndex].screens)
    }

    /// Marks `owner` and its ancestors as having shown a screen.
    mutating func markShown(_ owner: CoordinatorID) {
        var current: CoordinatorID? = owner
        while let id = current, nodes[id]?.hasShownScreens == false {
            nodes[id]?.hasShownScreens = true
            current = nodes[id]?.parent
        }
    }

    /// `id` and every descendant, parents before children.
    func subtree(_ id: CoordinatorID) -> [CoordinatorID] {
        guard let node = nodes[id] else { return [] }
        return [id] + node.children.values.sorted().flatMap { subtree($0) }
    }

    /// Removes `id`'s subtree: its nodes, their screens, and the layers they own.
    mutating func removeSubtree(_ id: CoordinatorID) {
        let doomed = Set(subtree(id))
        if let parent = nodes[id]?.parent, let key = nodes[id]?.key {
            nodes[parent]?.children[key] = nil
        }
        layers.removeAll { doomed.contains($0.owner) && $0.presentation != .root }
        for index in layers.indices {
            if doomed.contains(layers[index].owner) && layers[index].isTabs {
                layers[index].tabs = []  // a tab layer owned by a removed coordinator loses its tabs
            }
            layers[index].forEachStack { _, screens in screens.removeAll { doomed.contains($0.owner) } }
        }
        for node in doomed { nodes[node] = nil }
    }

    /// Drops layers with no screen left; a tab layer stays while it has tabs for its flows to fill.
    mutating func pruneEmptyLayers() {
        layers.removeAll { $0.screenCount == 0 && !($0.isTabs && !($0.tabs ?? []).isEmpty) }
    }

    /// The coordinators whose subtree owns a screen: each screen's owner and its ancestors,
    /// found in one pass (asking node by node walked every screen once per coordinator). An
    /// array searched by a scan: trees hold a few coordinators (`NavigationLimits`), and a set
    /// cost an allocation and a hash per insert on every event.
    func coordinatorsWithScreens() -> [CoordinatorID] {
        var marked: [CoordinatorID] = []
        marked.reserveCapacity(nodes.count)
        func mark(_ screens: [Screen]) {
            for screen in screens {
                var current: CoordinatorID? = screen.owner
                while let id = current, !marked.contains(id) {
                    marked.append(id)
                    current = parent(of: id)
                }
            }
        }
        for layer in layers {
            if let tabs = layer.tabs { tabs.forEach { mark($0.screens) } } else { mark(layer.screens) }
        }
        return marked
    }

    /// The deepest coordinator that showed screens and has none left (not the root), if any:
    /// the next one `settle` cancels.
    func deepestOrphan() -> CoordinatorID? {
        let withScreens = coordinatorsWithScreens()
        var deepest: (id: CoordinatorID, depth: Int)?
        // By index: `for node in nodes.values` copied every node (each of its fields retained).
        for index in nodes.indices {
            guard nodes.values[index].parent != nil, nodes.values[index].hasShownScreens else { continue }
            let id = nodes.values[index].id
            guard !withScreens.contains(id) else { continue }
            let depth = depth(id)
            if depth > deepest?.depth ?? -1 { deepest = (id, depth) }
        }
        return deepest?.id
    }

    /// Depth of a coordinator (root is 0), for deepest-first processing.
    func depth(_ id: CoordinatorID) -> Int {
        var depth = 0
        var current = parent(of: id)
        while let parent = current {
            depth += 1
            current = self.parent(of: parent)
        }
        return depth
    }

    /// The parent of `id` (nil for the root or an unknown id), read where the node is.
    func parent(of id: CoordinatorID) -> CoordinatorID? {
        guard let index = nodes.index(forKey: id) else { return nil }
        return nodes.values[index].parent
    }
}
