//! The publish plan: from the files of a built site and what the store holds
//! (the manifest this tool wrote last time and a listing of the prefix) to
//! the ordered operations of a publish, with the metadata of every object.
//!
//! Pure: no file system, no network, no clock. `cmd/publish.rs` reads the
//! site, [`super::store`] reads and writes the bucket; this module only
//! decides. It knows the site's layout (where the data, the index and the
//! pages live) and the content types and cache policies of
//! [`crate::layout`], nothing about S3.
//!
//! Order, so that no client ever follows a link to a missing object: data
//! (activity documents, calendars, schema) first, then the index
//! `api/v1/games.json`, then the pages, then the manifest, then removals.

use crate::i18n::msg;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::layout::{self, INDEX_PATH};
use crate::terminal::human_bytes;

/// Name of the manifest object, under the prefix.
pub const MANIFEST_NAME: &str = ".activity-site-manifest.json";

/// Version of the manifest format this tool reads and writes.
pub const MANIFEST_FORMAT: u32 = 1;

/// One file of the built site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalFile {
    /// Path relative to the site root, forward slashes.
    pub path: String,
    /// Hex sha256 of the content.
    pub sha256: String,
    pub bytes: u64,
}

/// The object `<prefix>/.activity-site-manifest.json`: every object this tool
/// created under the prefix, with the content and metadata it uploaded.
/// Only objects named here are ever replaced or removed without `--adopt`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Manifest {
    /// Always `activity-site`: a manifest of another tool is refused.
    pub generator: String,
    /// [`MANIFEST_FORMAT`].
    pub format: u32,
    /// False while a publish runs: some entries may be pending.
    pub complete: bool,
    /// Object path relative to the prefix -> what was uploaded there.
    pub files: BTreeMap<String, ManifestEntry>,
}

/// One object this tool owns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ManifestEntry {
    /// Hex sha256 of the uploaded bytes; `None` while an upload is pending.
    pub sha256: Option<String>,
    pub bytes: u64,
    #[serde(flatten)]
    pub meta: ObjectMeta,
}

/// The HTTP metadata an object is stored with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ObjectMeta {
    pub content_type: String,
    pub cache_control: String,
    /// `br` or `gzip` for precompressed siblings (`--precompressed`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_encoding: Option<String>,
}

/// What the store holds under the prefix.
#[derive(Debug, Clone, Default)]
pub struct Remote {
    /// The manifest, when one exists.
    pub manifest: Option<Manifest>,
    /// Paths (relative to the prefix) of the objects known to be there, the
    /// manifest aside: every object under the prefix when `listed`, else the
    /// manifest's paths and the site's other paths found by a lookup.
    pub objects: BTreeSet<String>,
    /// Whether `objects` comes from listing the whole prefix.
    pub listed: bool,
}

/// Choices of the user that change the plan.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// Upload the `.br`/`.gz` siblings as objects with a `Content-Encoding`.
    pub precompressed: bool,
    /// Remove the objects this tool made that the site no longer has.
    pub delete: bool,
    /// Overwrite (and from then on own) objects at the site's paths that
    /// this tool did not create.
    pub adopt: bool,
    /// List the whole prefix even when the manifest is complete, so objects
    /// removed behind the tool's back are uploaded again.
    pub verify: bool,
}

/// When an operation runs; the phases run one after the other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// Activity documents, calendars, the schema: what the index points at.
    Data,
    /// `api/v1/games.json`.
    Index,
    /// HTML pages and everything else for people.
    Pages,
    /// Objects the site no longer has (`--delete`), after the manifest.
    Remove,
}

/// What happens to one path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    /// Not in the store yet: uploaded.
    Added,
    /// In the store with other content or metadata: uploaded.
    Changed,
    /// Recorded in the manifest but gone from the store: uploaded again.
    Restored,
    /// Same content and metadata in the store: nothing to do.
    Unchanged,
    /// Made by this tool, no longer in the site: deleted (`--delete`).
    Removed,
    /// Made by this tool, no longer in the site: kept (no `--delete`).
    Stale,
}

/// One path of the plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Step {
    pub path: String,
    pub action: Action,
    pub phase: Phase,
    /// Bytes of the local file (0 for removals).
    pub bytes: u64,
    /// Hex sha256 of the local file (`None` for removals).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    /// Metadata to upload with (`None` for removals).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<ObjectMeta>,
}

impl Step {
    pub fn is_upload(&self) -> bool {
        matches!(
            self.action,
            Action::Added | Action::Changed | Action::Restored
        )
    }
}

/// Every path of a publish, in the order operations run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Plan {
    /// Uploads by phase (data, index, pages), then unchanged and stale
    /// paths, then removals.
    pub steps: Vec<Step>,
    /// Objects this tool did not create that the plan would replace (at the
    /// site's paths) or remove (`--adopt --delete`). A publish refuses them
    /// unless `--adopt` is given.
    pub foreign: Vec<String>,
    /// Local files that are not published (`_headers`, hidden files, the
    /// `.br`/`.gz` siblings without `--precompressed`).
    pub skipped: Vec<String>,
    /// Objects under the prefix that this tool did not make and the site
    /// does not publish, seen when the prefix was listed (always with
    /// `--delete`): kept, and listed so nobody wonders why they stay.
    pub others: Vec<String>,
    /// Whether the store had a manifest that a publish left incomplete.
    pub resumed: bool,
}

/// Problems with what the store holds that stop a publish before it starts.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ManifestError {
    #[error("`{name}` under the prefix is not a manifest of activity-site: {reason}")]
    Foreign { name: String, reason: String },
    #[error(
        "`{name}` has format {found}, this version of activity-site reads format {MANIFEST_FORMAT}"
    )]
    Format { name: String, found: u32 },
}

/// Reads a stored manifest, refusing one this tool did not write.
pub fn parse_manifest(bytes: &[u8]) -> Result<Manifest, ManifestError> {
    let manifest: Manifest =
        serde_json::from_slice(bytes).map_err(|err| ManifestError::Foreign {
            name: MANIFEST_NAME.to_owned(),
            reason: err.to_string(),
        })?;
    if manifest.generator != "activity-site" {
        return Err(ManifestError::Foreign {
            name: MANIFEST_NAME.to_owned(),
            reason: format!("its generator is `{}`", manifest.generator),
        });
    }
    if manifest.format != MANIFEST_FORMAT {
        return Err(ManifestError::Format {
            name: MANIFEST_NAME.to_owned(),
            found: manifest.format,
        });
    }
    Ok(manifest)
}

impl Manifest {
    /// A manifest of a publish still under way (`complete` false).
    fn unfinished(files: BTreeMap<String, ManifestEntry>) -> Manifest {
        Manifest {
            complete: false,
            ..Manifest::finished(files)
        }
    }

    /// A manifest of a publish whose uploads are all done.
    fn finished(files: BTreeMap<String, ManifestEntry>) -> Manifest {
        Manifest {
            generator: "activity-site".to_owned(),
            format: MANIFEST_FORMAT,
            complete: true,
            files,
        }
    }

    /// Pretty JSON with a trailing newline.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text.into_bytes()
    }
}

impl Plan {
    /// Compares the site's files with the store.
    pub fn new(local: &[LocalFile], remote: &Remote, options: &Options) -> Plan {
        let all: BTreeSet<&str> = local.iter().map(|f| f.path.as_str()).collect();
        let owned = remote
            .manifest
            .as_ref()
            .map(|m| &m.files)
            .cloned()
            .unwrap_or_default();
        let mut steps = Vec::new();
        let mut skipped = Vec::new();
        let mut foreign = Vec::new();
        let mut published = BTreeSet::new();
        for file in local {
            let Some(meta) = publishable(&file.path, &all, options.precompressed) else {
                skipped.push(file.path.clone());
                continue;
            };
            published.insert(file.path.as_str());
            let present = remote.objects.contains(&file.path);
            let action = match owned.get(&file.path) {
                None if present => {
                    foreign.push(file.path.clone());
                    Action::Changed
                }
                None => Action::Added,
                Some(entry) if entry.sha256.is_none() && !present => Action::Added,
                Some(entry)
                    if entry.sha256.as_deref() == Some(file.sha256.as_str())
                        && entry.meta == meta =>
                {
                    if present {
                        Action::Unchanged
                    } else {
                        Action::Restored
                    }
                }
                Some(_) => Action::Changed,
            };
            steps.push(Step {
                phase: phase_of(&file.path),
                path: file.path.clone(),
                action,
                bytes: file.bytes,
                sha256: Some(file.sha256.clone()),
                meta: Some(meta),
            });
        }
        for path in owned.keys() {
            if published.contains(path.as_str()) {
                continue;
            }
            steps.push(Step {
                path: path.clone(),
                action: if options.delete {
                    Action::Removed
                } else {
                    Action::Stale
                },
                phase: Phase::Remove,
                bytes: 0,
                sha256: None,
                meta: None,
            });
        }
        let mut others: Vec<String> = remote
            .objects
            .iter()
            .filter(|p| !owned.contains_key(*p) && !published.contains(p.as_str()))
            .cloned()
            .collect();
        if options.adopt && options.delete {
            // Taken over: removed like any other object the site no longer has.
            for path in others.drain(..) {
                foreign.push(path.clone());
                steps.push(Step {
                    path,
                    action: Action::Removed,
                    phase: Phase::Remove,
                    bytes: 0,
                    sha256: None,
                    meta: None,
                });
            }
        }
        let rank = |s: &Step| match s.action {
            Action::Added | Action::Changed | Action::Restored => 0,
            Action::Unchanged | Action::Stale => 1,
            Action::Removed => 2,
        };
        steps.sort_by(|a, b| (rank(a), a.phase, &a.path).cmp(&(rank(b), b.phase, &b.path)));
        Plan {
            steps,
            foreign,
            skipped,
            others,
            resumed: remote.manifest.as_ref().is_some_and(|m| !m.complete),
        }
    }

    /// The uploads, in the order they must run.
    pub fn uploads(&self) -> impl Iterator<Item = &Step> {
        self.steps.iter().filter(|s| s.is_upload())
    }

    /// The deletions (`--delete`), which run last.
    pub fn removals(&self) -> impl Iterator<Item = &Step> {
        self.steps.iter().filter(|s| s.action == Action::Removed)
    }

    /// Whether a publish would write or delete anything.
    pub fn has_work(&self) -> bool {
        self.resumed
            || self
                .steps
                .iter()
                .any(|s| s.is_upload() || s.action == Action::Removed)
    }

    pub fn count(&self, action: Action) -> usize {
        self.steps.iter().filter(|s| s.action == action).count()
    }

    /// Bytes the uploads send.
    pub fn upload_bytes(&self) -> u64 {
        self.uploads().map(|s| s.bytes).sum()
    }

    /// The manifest written before the first upload: everything the old
    /// manifest owned, plus every path about to be uploaded as pending. So a
    /// publish interrupted at any point has recorded every object it may
    /// have created, and the next run uploads every pending path again.
    pub fn pending_manifest(&self, old: Option<&Manifest>) -> Manifest {
        let mut files = old.map(|m| m.files.clone()).unwrap_or_default();
        for step in self.uploads() {
            files.insert(
                step.path.clone(),
                ManifestEntry {
                    sha256: None,
                    bytes: step.bytes,
                    meta: step.meta.clone().unwrap_or_else(|| metadata(&step.path)),
                },
            );
        }
        Manifest::unfinished(files)
    }

    /// The manifest once every upload is done, while the removals are
    /// still to come: [`Plan::final_manifest`] and the objects it removes.
    pub fn manifest_before_removals(&self, old: Option<&Manifest>) -> Manifest {
        let mut manifest = self.final_manifest(old);
        for step in self.removals() {
            if let Some(entry) = old.and_then(|m| m.files.get(&step.path)) {
                manifest.files.insert(step.path.clone(), entry.clone());
            }
        }
        manifest
    }

    /// The manifest once every upload and removal is done: the site's
    /// published files, plus the stale ones.
    pub fn final_manifest(&self, old: Option<&Manifest>) -> Manifest {
        let mut files = BTreeMap::new();
        for step in &self.steps {
            match step.action {
                Action::Removed => continue,
                Action::Stale => {
                    if let Some(entry) = old.and_then(|m| m.files.get(&step.path)) {
                        files.insert(step.path.clone(), entry.clone());
                    }
                }
                _ => {
                    files.insert(
                        step.path.clone(),
                        ManifestEntry {
                            sha256: step.sha256.clone(),
                            bytes: step.bytes,
                            meta: step.meta.clone().unwrap_or_else(|| metadata(&step.path)),
                        },
                    );
                }
            }
        }
        Manifest::finished(files)
    }

    /// The plan for people, like `diff`: one line per path that changes,
    /// then a summary. `target` is the `s3://` URL.
    pub fn to_text(&self, target: &str, stage: Stage) -> String {
        let mut out = String::new();
        for step in &self.steps {
            let mark = match step.action {
                Action::Added => "+",
                Action::Changed => "~",
                Action::Restored => "!",
                Action::Removed => "-",
                Action::Stale => "?",
                Action::Unchanged => continue,
            };
            let note = match step.action {
                Action::Restored => msg!("publish-note-restored").to_string(),
                Action::Stale => msg!("publish-note-stale").to_string(),
                _ if self.foreign.contains(&step.path) => msg!("publish-note-foreign").to_string(),
                _ => String::new(),
            };
            if step.action == Action::Removed || step.action == Action::Stale {
                let _ = writeln!(out, "{mark} {}{note}", step.path);
            } else {
                let _ = writeln!(
                    out,
                    "{mark} {} ({}){note}",
                    step.path,
                    human_bytes(step.bytes)
                );
            }
        }
        for path in &self.others {
            let _ = writeln!(
                out,
                "{}",
                msg!("publish-kept-foreign", path = path.as_str())
            );
        }
        let uploads = self.uploads().count();
        let summary = msg!(
            "publish-summary",
            dry = match stage {
                Stage::DryRun => "yes",
                Stage::Done => "no",
            },
            target = target,
            added = self.count(Action::Added),
            changed = self.count(Action::Changed),
            restored = self.count(Action::Restored),
            unchanged = self.count(Action::Unchanged),
            removed = self.count(Action::Removed),
            stale = self.count(Action::Stale),
            uploads = uploads,
            size = human_bytes(self.upload_bytes()),
            others = self.others.len()
        );
        let _ = writeln!(out, "{summary}");
        out
    }

    /// The plan as pretty JSON with a trailing newline.
    pub fn to_json(&self, target: &str, stage: Stage) -> String {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Out<'a> {
            target: &'a str,
            dry_run: bool,
            uploads: usize,
            upload_bytes: u64,
            #[serde(flatten)]
            plan: &'a Plan,
        }
        let mut text = serde_json::to_string_pretty(&Out {
            target,
            dry_run: stage == Stage::DryRun,
            uploads: self.uploads().count(),
            upload_bytes: self.upload_bytes(),
            plan: self,
        })
        .unwrap_or_default();
        text.push('\n');
        text
    }
}

/// When a plan is shown: before a dry run that changes nothing, or after
/// the upload it describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    DryRun,
    Done,
}

/// The metadata of a published path, or `None` when the path is not
/// published: hidden files (but the API catalog's `.well-known/`), [`layout::HOST_ONLY`] (the output marker;
/// `_headers`, whose intent is in the metadata and the README's bucket
/// configuration; `_redirects`) and, without
/// `precompressed`, the `.br`/`.gz` siblings of other files of the site.
pub fn publishable(path: &str, all: &BTreeSet<&str>, precompressed: bool) -> Option<ObjectMeta> {
    if layout::is_hidden(path) || layout::is_host_only(path) {
        return None;
    }
    if let Some((base, encoding)) = layout::sibling_of(path)
        && all.contains(base)
    {
        if !precompressed {
            return None;
        }
        let mut meta = metadata(base);
        meta.content_encoding = Some(encoding.to_owned());
        return Some(meta);
    }
    Some(metadata(path))
}

/// `Content-Type` and `Cache-Control` of a path of the site, as the
/// [`layout`] gives them to every server of the site.
pub fn metadata(path: &str) -> ObjectMeta {
    ObjectMeta {
        content_type: layout::content_type(path).to_owned(),
        cache_control: layout::cache_control(path).to_owned(),
        content_encoding: None,
    }
}

fn phase_of(path: &str) -> Phase {
    let base = layout::sibling_of(path).map_or(path, |(base, _)| base);
    if base == INDEX_PATH {
        Phase::Index
    } else if layout::has_api_policy(base) {
        Phase::Data
    } else {
        Phase::Pages
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::{API_CACHE, IMMUTABLE_CACHE, PAGE_CACHE};

    fn file(path: &str, sha: &str) -> LocalFile {
        LocalFile {
            path: path.to_owned(),
            sha256: sha.to_owned(),
            bytes: 10,
        }
    }

    #[test]
    fn uploads_run_data_then_index_then_pages() {
        let local = [
            file("index.html", "a"),
            file(INDEX_PATH, "b"),
            file("api/v1/activity/ww.json", "c"),
            file("api/v1/activity/ww.ics", "d"),
            file("announcements/index.html", "e"),
            file("api/v1/anno.json", "f"),
            file("api/v1/anno.atom", "g"),
        ];
        let plan = Plan::new(&local, &Remote::default(), &Options::default());
        let order: Vec<&str> = plan.uploads().map(|s| s.path.as_str()).collect();
        assert_eq!(
            order,
            [
                "api/v1/activity/ww.ics",
                "api/v1/activity/ww.json",
                "api/v1/anno.atom",
                "api/v1/anno.json",
                INDEX_PATH,
                "announcements/index.html",
                "index.html"
            ]
        );
    }

    #[test]
    fn siblings_marker_and_headers_are_skipped_unless_asked() {
        let local = [
            file("index.html", "a"),
            file("index.html.br", "b"),
            file("index.html.gz", "c"),
            file("_headers", "d"),
            file(".activity-site-output", "e"),
        ];
        let plan = Plan::new(&local, &Remote::default(), &Options::default());
        assert_eq!(plan.uploads().count(), 1);
        let options = Options {
            precompressed: true,
            ..Options::default()
        };
        let plan = Plan::new(&local, &Remote::default(), &options);
        let br = plan
            .steps
            .iter()
            .find(|s| s.path == "index.html.br")
            .unwrap();
        let meta = br.meta.as_ref().unwrap();
        assert_eq!(meta.content_type, "text/html; charset=utf-8");
        assert_eq!(meta.content_encoding.as_deref(), Some("br"));
    }

    #[test]
    fn foreign_objects_are_reported_and_never_removed() {
        let local = [file("index.html", "a")];
        let remote = Remote {
            manifest: None,
            objects: ["index.html".to_owned(), "theirs.txt".to_owned()].into(),
            listed: true,
        };
        let options = Options {
            delete: true,
            ..Options::default()
        };
        let plan = Plan::new(&local, &remote, &options);
        assert_eq!(plan.foreign, ["index.html"]);
        assert_eq!(plan.removals().count(), 0);
        assert_eq!(plan.others, ["theirs.txt"]);
    }

    #[test]
    fn content_hashed_names_are_immutable() {
        assert_eq!(
            metadata("style.3f9a1c0b.css").cache_control,
            IMMUTABLE_CACHE
        );
        assert_eq!(metadata("api/v1/activity/ww.json").cache_control, API_CACHE);
        assert_eq!(metadata("ww/index.html").cache_control, PAGE_CACHE);
    }
}
