//! Writing the site: everything goes into a staging directory beside the
//! output, which is then swapped in with one rename, so a host never serves
//! half a site and a failed build leaves the old one untouched.

use std::fs;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

use anyhow::Context as _;

use super::OutputFile;

/// Refuses output directories that would swap away the inputs.
pub fn guard_output(root: &Path, out: &Path) -> anyhow::Result<()> {
    let root = fs::canonicalize(root)
        .with_context(|| format!("cannot read the root `{}`", root.display()))?;
    let out_abs = absolute(out)?;
    anyhow::ensure!(
        !root.starts_with(&out_abs),
        "refusing to build into `{}`: it contains the data root",
        out.display()
    );
    if out_abs.join("games.json").exists() || out_abs.join(".git").exists() {
        anyhow::bail!(
            "refusing to build into `{}`: it holds games.json or .git, not a generated site",
            out.display()
        );
    }
    Ok(())
}

fn absolute(path: &Path) -> anyhow::Result<PathBuf> {
    let path = std::path::absolute(path)
        .with_context(|| format!("bad output path `{}`", path.display()))?;
    // Resolve symlinks of the existing part, so `site -> /` is caught too.
    match fs::canonicalize(&path) {
        Ok(resolved) => Ok(resolved),
        Err(_) => Ok(path),
    }
}

/// Writes `files` into a fresh directory and makes it `out` in one step.
pub fn replace_dir(out: &Path, files: &[OutputFile]) -> anyhow::Result<()> {
    let out =
        std::path::absolute(out).with_context(|| format!("bad output path `{}`", out.display()))?;
    let parent = out.parent().context("the output directory has no parent")?;
    fs::create_dir_all(parent).with_context(|| format!("cannot create `{}`", parent.display()))?;
    let name = out
        .file_name()
        .context("the output directory has no name")?
        .to_string_lossy();
    let staging = tempfile::Builder::new()
        .prefix(&format!(".{name}.staging-"))
        .tempdir_in(parent)
        .with_context(|| {
            format!(
                "cannot create a staging directory in `{}`",
                parent.display()
            )
        })?;
    for file in files {
        let path = staging.path().join(&file.path);
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir)
                .with_context(|| format!("cannot create `{}`", dir.display()))?;
        }
        let mut handle = fs::File::create(&path)
            .with_context(|| format!("cannot write `{}`", path.display()))?;
        handle
            .write_all(&file.bytes)
            .with_context(|| format!("cannot write `{}`", path.display()))?;
    }
    set_dir_permissions(staging.path());
    let staging = staging.keep();
    match swap(&staging, &out) {
        Ok(Some(old)) => {
            let _ = fs::remove_dir_all(old);
            Ok(())
        }
        Ok(None) => Ok(()),
        Err(err) => {
            let _ = fs::remove_dir_all(&staging);
            Err(err).with_context(|| format!("cannot replace `{}`", out.display()))
        }
    }
}

/// Makes the staging directory world-readable like a normal build output
/// (tempfile creates it private).
fn set_dir_permissions(dir: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = fs::set_permissions(dir, fs::Permissions::from_mode(0o755));
    }
}

/// Puts `staging` at `out`. Returns the path of the previous output, which
/// the caller removes. On Linux the two directories are exchanged atomically.
fn swap(staging: &Path, out: &Path) -> io::Result<Option<PathBuf>> {
    match fs::symlink_metadata(out) {
        Err(err) if err.kind() == io::ErrorKind::NotFound => {
            fs::rename(staging, out)?;
            return Ok(None);
        }
        Err(err) => return Err(err),
        Ok(meta) if !meta.is_dir() => {
            return Err(io::Error::other(
                "the output path exists and is not a directory",
            ));
        }
        Ok(_) => {}
    }
    #[cfg(target_os = "linux")]
    if exchange(staging, out).is_ok() {
        return Ok(Some(staging.to_path_buf()));
    }
    // Elsewhere: two renames, with a moment in between where `out` is missing.
    let mut old = staging.as_os_str().to_owned();
    old.push(".old");
    let old = PathBuf::from(old);
    fs::rename(out, &old)?;
    if let Err(err) = fs::rename(staging, out) {
        let _ = fs::rename(&old, out);
        return Err(err);
    }
    Ok(Some(old))
}

#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> io::Result<()> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;

    let a = CString::new(a.as_os_str().as_bytes()).map_err(io::Error::other)?;
    let b = CString::new(b.as_os_str().as_bytes()).map_err(io::Error::other)?;
    // SAFETY: both arguments are valid NUL-terminated paths that outlive the call.
    let rc = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            a.as_ptr(),
            libc::AT_FDCWD,
            b.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if rc == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}
