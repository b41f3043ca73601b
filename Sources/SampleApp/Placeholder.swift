public enum SampleAppPlaceholder {}
