/// Gives a request's task room for all its async frames at once.
///
/// A task allocates its async frames from slabs: the first, of under a kilobyte, inside the task;
/// then a slab per frame that does not fit, each `malloc`ed and freed with the task (an event's
/// frames took eleven). One allocation of `bytes`, freed at once, leaves one empty slab that size
/// behind, where the later frames go. The runtime's own entry points: the standard library has no
/// API for a task's allocator.
enum TaskAllocatorPriming {
    /// Room for an event's frames: with it, an event's task `malloc`s two slabs, not eleven
    /// (callgrind, `bench/callgrind.py --toggle`).
    static let bytes = 16 * 1024

    /// Called first thing in a task.
    static func prime() {
        swift_task_dealloc(swift_task_alloc(bytes))
    }
}

@_silgen_name("swift_task_alloc")
private func swift_task_alloc(_ size: Int) -> UnsafeMutableRawPointer

@_silgen_name("swift_task_dealloc")
private func swift_task_dealloc(_ pointer: UnsafeMutableRawPointer)
