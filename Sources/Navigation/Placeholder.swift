public enum NavigationPlaceholder {}
