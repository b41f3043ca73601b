/// The buckets of the duration histograms on `/metrics` (requests' `http_request_duration_seconds`,
/// the SQLite writer's `coordinatord_commit_seconds`). swift-prometheus's default buckets start at
/// 5 ms, and most answers and commits take less: all fell in the first bucket.
enum DurationBuckets {
    static let standard: [Duration] =
        [100, 250, 500, 1_000, 1_500, 2_000, 3_000, 5_000, 7_500, 10_000, 25_000, 50_000, 100_000, 250_000, 500_000]
        .map { .microseconds($0) } + [1, 2.5, 5, 10].map { .seconds($0) }
}
