//! The `autofix` binary: everything happens in the library's front end.

fn main() -> std::process::ExitCode {
    autofix::run()
}
