//! The one integration test binary. Each module holds the tests of one area.

// Shared helpers: temp roots, running the binary, the router, a server on the binary's stdio.
mod util;

// What no crate boundary can say: the arrows inside a crate, the one owner
// of each kind of path, no import circles in a folder.
mod architecture;

// The languages: .ftl parity, the code's messages, Chinese conventions, `check` in en-US and zh-CN.
mod i18n;

// `--help` in the contributors' language (issue 49).
mod help;

// `check`: invalid fixtures (one defect each), real documents, rendering, exit codes.
mod check;

// `check --fix`: every exact fix in one command, the patch, never a guess.
mod fix;

// Issue 55: activity ids (`check --fix` pairs them across locales, `diff`
// and the calendars follow them, a duplicate is an error).
mod ids;

// The parser under `check` and `fmt`: character columns, duplicate keys, values kept by `fmt`, schema agreement.
mod parse;

// Property tests over mutated documents: no panic, positions inside the file, exit 0/1.
mod fuzz;

// `build`, `fmt` and `status`: output files, determinism, atomicity.
mod build;

// The build cache: warm equals cold, invalidation, damaged entries, deferred siblings.
mod cache;

// The control service's own tests are its crate's (crates/control/tests);
// the tests here that reach it through the router or `serve` share its
// helpers, one copy: a router over a temporary state directory, a real
// server, an SSE reader.
#[path = "../crates/control/tests/control/harness.rs"]
mod harness;

// The site for people: pages, calendars, headers, precompression and diff.
mod pages;

// Issue 46: updateMode drives freshness (status, stale, the ending-soon script); source conventions.
mod freshness;

// Issue 32: `diff` in the client's terms (statuses, breaking changes, formats,
// folder and git-revision bases) and `version new`, on fixture pairs of trees.
mod review;

// Issue 64: the version day on the bundled data, in both languages.
mod version_day;

// Issue 64: the commands README.md and CONTRIBUTING.md show, run as shown;
// the parts of them `activity-site docs` writes.
mod transcripts;

// publish: against a real S3-compatible server (s3s-fs) on loopback.
mod publish;

// Issue 10 through the router: origins, hosts, body types, envelopes, bounds, names, faults.
mod trust;

// Issue 37: every promise of SECURITY.md, probed through the router and the binary.
mod promises;

// Issue 48: the state directory is shared: other programs' keys survive, corrupt files are
// moved aside and answered 500, strays stop nothing, `build --force` deletes nothing.
mod shared_state;

// The backend process of a real `serve`: 200 restarts, shutdown, a second backend program.
mod backend;

// Process-level faults of `serve`: SIGKILL during writes, an unwritable disk, corrupt state.
mod faults;

// serve: static semantics through the router, and live rebuilds on loopback.
mod serve;

// The owned output directory (marker, --force, defaults under --root) and closed pipes.
mod output;

// `import --from DIR|URL`: round trips through a built site, --force, failing files.
mod import;

// `activity-site lsp` over stdio: encodings, diagnostics, quick fixes, formatting, hover, robustness.
mod lsp;

// `activity-site mcp` over stdio: drafts checked in place, clean ones written canonically, nothing outside.
mod data_mcp;

// Issue 30: the announcements boards: diagnostics, fmt, status, build, page and feed.
mod announcements;
// Issue 31, adopting the real site: per-game time zones, the tool's own folders of data/.
mod adopt;

// Issue 47: every kind of document declared in one place has what a kind needs.
mod kinds;

// Issue 55: the published contract: instants with their offsets (a DST zone), due times,
// --site-url, the schemas, the OpenAPI and the API catalog, diff on published fields.
mod contract;
