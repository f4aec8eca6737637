//! The `autofix` binary: everything happens in the library's front end.

fn main() -> std::process::ExitCode {
    // glibc raises its mmap threshold each time a large block is freed, so later large
    // buffers come from the heap and stay resident once freed: `check` on a file of 100k
    // rules, a warning on each, peaked at 5.4 times the file, 4.9 with the threshold
    // pinned at its default (see src/docs/performance.md).
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[allow(unsafe_code)]
    // SAFETY: mallopt sets a parameter of the allocator; called before any thread starts.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024);
    }
    autofix::run()
}
