public enum SessionsPlaceholder {}
