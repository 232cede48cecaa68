//! Relative paths as the tool writes them: their parts joined with `/`,
//! whatever the platform (a site's files, a root's sources, a path shown
//! to a person); a leaf.

use std::path::Path;

/// `rel` with `/` between its parts; a part that is not UTF-8 is written
/// lossily.
pub fn slashed(rel: &Path) -> String {
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// `path` relative to `base`, [`slashed`]; `path` itself, slashed, when it
/// is not below `base`.
pub fn below(base: &Path, path: &Path) -> String {
    slashed(path.strip_prefix(base).unwrap_or(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_are_joined_with_a_slash() {
        let rel: std::path::PathBuf = ["data", "sr", "en-US.json"].iter().collect();
        assert_eq!(slashed(&rel), "data/sr/en-US.json");
        let root = Path::new("root");
        assert_eq!(below(root, &root.join(&rel)), "data/sr/en-US.json");
        assert_eq!(below(Path::new("elsewhere"), &rel), "data/sr/en-US.json");
    }
}
