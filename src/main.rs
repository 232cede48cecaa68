use std::process::ExitCode;

use clap::Parser;

// Checking parses hundreds of thousands of small JSON values; mimalloc keeps
// their allocation cheap and scales across threads (see BENCHMARKS.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    no_huge_pages();
    let cli = activity_site::cli::Cli::parse();
    match activity_site::cmd::run(cli) {
        Ok(code) => code,
        Err(err) if activity_site::cmd::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}

/// Turns transparent huge pages off for this process. mimalloc asks for them
/// on its arenas, and the kernel then backs each touched 2 MiB of a
/// short-lived command with a whole zeroed huge page: peak memory of a build
/// about doubles (25 to 55 MB) and clearing those pages costs more time than
/// it saves. Set at the start of `main`, before the work allocates.
fn no_huge_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE only sets a flag of this process; the
    // arguments are plain integers and nothing is read through pointers.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

/// mimalloc's `arena_eager_commit` option: its number in the `mi_option_t`
/// of mimalloc 3's `mimalloc.h`, which `libmimalloc-sys` builds (the crate's
/// named constants follow version 2).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MI_OPTION_ARENA_EAGER_COMMIT: libmimalloc_sys::mi_option_t = 4;

/// Commits mimalloc's arenas as they are used rather than whole, for every
/// command but `serve`: peak memory of `check` on the 1,000-game corpus
/// falls from about 25.5 to 23.5 MB at the same speed (BENCHMARKS.md),
/// while `serve`, which allocates on every request, keeps the faster
/// default. It must run before the first arena is reserved, which happens
/// before `main` (setting it in `main` has no effect), so it is an ELF
/// constructor. glibc passes constructors the program's arguments, as the
/// standard library's own `std::env::args` relies on.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[used]
#[unsafe(link_section = ".init_array")]
static LAZY_ARENAS: extern "C" fn(
    std::ffi::c_int,
    *const *const std::ffi::c_char,
    *const *const std::ffi::c_char,
) = {
    extern "C" fn lazy_arenas(
        argc: std::ffi::c_int,
        argv: *const *const std::ffi::c_char,
        _env: *const *const std::ffi::c_char,
    ) {
        let count = usize::try_from(argc).unwrap_or(0);
        let serving = !argv.is_null()
            && (1..count).any(|i| {
                // SAFETY: glibc passes `argc` valid, NUL-terminated strings in
                // `argv`, which live for the whole program.
                let arg = unsafe { *argv.add(i) };
                !arg.is_null() && unsafe { std::ffi::CStr::from_ptr(arg) }.to_bytes() == b"serve"
            });
        if !serving {
            // SAFETY: setting an option is allowed at any time; the
            // arguments are plain integers.
            unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_ARENA_EAGER_COMMIT, 0) };
        }
    }
    lazy_arenas
};
