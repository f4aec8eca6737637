//! Interruption while a source is fetched: SIGINT, SIGTERM and SIGHUP are caught while a
//! [`Guard`] lives, so the git run in progress is ended with its whole process group and
//! the scratch repository removed; when the last guard goes, each signal gets back the
//! action it had and a caught one is raised again, so the process ends by it as it would
//! have. Elsewhere the signals keep their action (every write of the tool survives a
//! kill). On other systems than unix nothing is caught.

use std::sync::Mutex;
use std::sync::atomic::{AtomicI32, Ordering};

/// The signal caught, or 0.
static CAUGHT: AtomicI32 = AtomicI32::new(0);

/// How many guards live (the handlers are installed by the first, restored by the last).
static GUARDS: Mutex<usize> = Mutex::new(0);

/// The signals caught: an interrupt at the terminal, a polite kill, a closed terminal.
#[cfg(unix)]
const SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

/// Whether a signal came since the first guard was made.
pub(crate) fn interrupted() -> bool {
    CAUGHT.load(Ordering::SeqCst) != 0
}

/// While it lives, the signals are caught (see the module's text).
pub(crate) struct Guard(());

impl Guard {
    pub(crate) fn new() -> Guard {
        let mut guards = GUARDS
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if *guards == 0 {
            set_handlers(true);
        }
        *guards += 1;
        Guard(())
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        let mut guards = GUARDS
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *guards -= 1;
        if *guards == 0 {
            set_handlers(false);
            let signal = CAUGHT.swap(0, Ordering::SeqCst);
            if signal != 0 {
                raise(signal);
            }
        }
    }
}

#[cfg(unix)]
extern "C" fn on_signal(signal: libc::c_int) {
    // Only an atomic store: the one thing a handler may safely do here.
    CAUGHT.store(signal, Ordering::SeqCst);
}

/// Each signal's action before the first guard, given back by the last.
#[cfg(unix)]
static BEFORE: [std::sync::atomic::AtomicUsize; 3] =
    [const { std::sync::atomic::AtomicUsize::new(0) }; 3];

/// Catches the signals (`catch`), or gives them the action they had before. A signal the
/// process was started ignoring (`nohup`) stays ignored.
#[cfg(unix)]
#[allow(unsafe_code)]
fn set_handlers(catch: bool) {
    let ours = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
    for (signal, before) in SIGNALS.iter().zip(&BEFORE) {
        // SAFETY: `signal` installs a handler that only stores into an atomic, or gives
        // back the action it replaced; it reads and writes no memory of ours.
        unsafe {
            if catch {
                let old = libc::signal(*signal, ours);
                before.store(old, Ordering::SeqCst);
                if old == libc::SIG_IGN {
                    libc::signal(*signal, libc::SIG_IGN);
                }
            } else {
                libc::signal(*signal, before.load(Ordering::SeqCst));
            }
        }
    }
}

/// Ends the process by `signal`, its action what it was before (the default, unless a
/// caller of autofix chose otherwise).
#[cfg(unix)]
#[allow(unsafe_code)]
fn raise(signal: libc::c_int) {
    use std::io::Write as _;
    let _ = std::io::stdout().flush();
    // SAFETY: `raise` only sends a signal to this process.
    unsafe {
        libc::raise(signal);
    }
}

#[cfg(not(unix))]
fn set_handlers(_catch: bool) {}

#[cfg(not(unix))]
fn raise(_signal: i32) {}
