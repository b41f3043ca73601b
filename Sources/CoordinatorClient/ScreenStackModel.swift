/// What a native shell shows for a State, in the terms of UIKit and SwiftUI: a base layer (a
/// navigation stack, or tabs each with a stack), the sheets presented over it in order, and an
/// alert on top. Platform-neutral, so the mapping is tested where no UI framework exists.
///
/// The shell renders it and reports the platform's own gestures through `action(...)`: it never
/// changes what is shown by itself; the next State does.
public struct ScreenStackModel: Sendable, Hashable {
    /// The root layer; nil only for an empty State.
    public var base: LayerModel?
    /// Modal layers, bottom to top: each is presented over the one before (the first over `base`).
    public var sheets: [LayerModel]
    /// The alert shown over everything: the top layer when it is an alert layer.
    public var alert: Screen?
    /// The one screen that accepts events now.
    public var top: ScreenID?

    public init(_ state: SessionState) {
        top = state.top
        var layers = state.stack.enumerated().map { LayerModel(index: $0.offset, layer: $0.element, top: state.top) }
        // Only the top layer can be an alert: an alert layer under others is shown as a sheet,
        // so nothing the State holds is hidden.
        if let last = state.stack.last, last.presentation == .alert, layers.count > 1 {
            alert = last.allScreens.last
            layers.removeLast()
        } else {
            alert = nil
        }
        base = layers.first.flatMap { $0 }
        sheets = layers.dropFirst().compactMap { $0 }
    }

    /// Every layer shown as a stack or tabs, bottom to top.
    public var layers: [LayerModel] { (base.map { [$0] } ?? []) + sheets }

    /// What to send when the user popped `layer`'s stack (in `tab`, for tabs) to `count` pushed
    /// screens: `back`, when that is the top layer and the stack got shorter; nil otherwise (a
    /// path that SwiftUI set back to what the model says).
    public func action(poppingTo count: Int, in layer: LayerModel, tab: String? = nil) -> ShellAction? {
        guard layer.isTop, let stack = layer.stack(tab: tab), count < stack.path.count else { return nil }
        return .back
    }

    /// What to send when the user swiped `layer` (a sheet) away: `dismiss` if it is the top layer.
    public func action(dismissing layer: LayerModel) -> ShellAction? {
        layer.isTop && layer.index > 0 ? .dismiss : nil
    }

    /// What to send when the user picked `tab` in `layer`'s tab bar: `selectTab`, when it is
    /// another tab of the top layer.
    public func action(selecting tab: String, in layer: LayerModel) -> ShellAction? {
        guard layer.isTop, case .tabs(let tabs) = layer.content, tabs.selected != tab,
            tabs.tabs.contains(where: { $0.name == tab })
        else { return nil }
        return .selectTab(tab)
    }
}

/// One layer as a shell shows it.
public struct LayerModel: Sendable, Hashable, Identifiable {
    /// Its position in the State's `stack` (0: the root).
    public var index: Int
    /// Its first screen's id: it stays while the layer is shown, so a sheet keeps its identity
    /// when screens are pushed in it.
    public var id: ScreenID
    public var presentation: Presentation
    public var content: Content
    /// True when the top screen is in this layer: only then do its gestures mean anything.
    public var isTop: Bool

    public enum Content: Sendable, Hashable {
        case stack(StackModel)
        case tabs(TabsModel)
    }

    /// Nil for a layer without screens (which the server never sends).
    init?(index: Int, layer: Layer, top: ScreenID?) {
        let content: Content
        if let tabs = layer.tabs {
            let models = tabs.compactMap { tab in
                StackModel(tab.screens).map { TabModel(name: tab.name, title: tab.title, stack: $0) }
            }
            guard let first = models.first else { return nil }
            content = .tabs(TabsModel(tabs: models, selected: layer.selectedTab ?? first.name))
        } else {
            guard let stack = StackModel(layer.screens ?? []) else { return nil }
            content = .stack(stack)
        }
        guard let first = layer.allScreens.first else { return nil }
        (self.index, self.id, self.presentation, self.content) = (index, first.id, layer.presentation, content)
        isTop = top.map { top in layer.allScreens.contains { $0.id == top } } ?? false
    }

    /// The stack shown: the layer's own, or the tab `tab`'s (the selected tab's by default).
    public func stack(tab: String? = nil) -> StackModel? {
        switch content {
        case .stack(let stack): return stack
        case .tabs(let tabs): return tabs.tabs.first { $0.name == (tab ?? tabs.selected) }?.stack
        }
    }
}

/// A navigation stack: its root screen and the screens pushed over it (a `NavigationStack`'s
/// root view and its path).
public struct StackModel: Sendable, Hashable {
    public var root: Screen
    public var path: [Screen]

    init?(_ screens: [Screen]) {
        guard let root = screens.first else { return nil }
        (self.root, self.path) = (root, Array(screens.dropFirst()))
    }

    /// The pushed screens' ids: a `NavigationStack(path:)` binding.
    public var pathIDs: [ScreenID] { path.map(\.id) }
    /// The screen with `id` in this stack.
    public func screen(_ id: ScreenID) -> Screen? { ([root] + path).first { $0.id == id } }
    /// The screen on top of this stack.
    public var topScreen: Screen { path.last ?? root }
}

/// A tab container.
public struct TabsModel: Sendable, Hashable {
    public var tabs: [TabModel]
    /// The selected tab's name.
    public var selected: String
}

/// One tab with its stack.
public struct TabModel: Sendable, Hashable, Identifiable {
    public var name: String
    public var title: String
    public var stack: StackModel
    public var id: String { name }
}
