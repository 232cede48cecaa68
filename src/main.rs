use std::process::ExitCode;

// The allocator, and the one setting beside it (`no_huge_pages`): checking
// parses hundreds of thousands of small JSON values on every core, and
// mimalloc keeps that cheap where the system allocator contends (BENCHMARKS.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    no_huge_pages();
    let cli = activity_site::cli::parse();
    match activity_site::cmd::run(cli) {
        Ok(code) => code,
        Err(err) if activity_site::cmd::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            let line = activity_site::i18n::Msg::new("tool-error")
                .arg("error", activity_site::i18n::causes(&err));
            activity_site::terminal::say(line);
            ExitCode::from(2)
        }
    }
}

/// Turns transparent huge pages off for this process. mimalloc asks for them
/// on its arenas, and the kernel then backs each touched 2 MiB of a
/// short-lived command with a whole zeroed huge page: peak memory of a build
/// about doubles and clearing those pages costs more time than it saves
/// (BENCHMARKS.md). Set at the start of `main`, before the work allocates.
fn no_huge_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE only sets a flag of this process; the
    // arguments are plain integers and nothing is read through pointers.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}
