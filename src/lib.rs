//! `activity-site`: validate, build and serve the public activity API.
//!
//! # Bird's-eye view
//!
//! Contributors edit `games.json`, `data/<game>/<locale>.json` and the
//! announcements boards `data/_announcements/<locale>.json`. The
//! [`load`] phase reads the whole tree once, as text, into one value
//! ([`source::Tree`]) that everything after it computes on, never
//! reading the disk; [`validate`] parses each file once with [`json`] (a tree that borrows the
//! text and knows every byte range and every repeated key), runs the JSON
//! Schemas of `schema/` and the rules and returns [`diagnostics::Diagnostic`]s, and
//! [`site`] turns a clean tree into `site/`: the JSON API, its index and
//! schema, iCalendar feeds and HTML pages. [`site::check()`] drives the first
//! two phases game by game on every core (checking is loading without
//! building; [`site::check_documents`] also keeps the typed documents,
//! [`validate::TypedDocument`]: checked where their file has no error, as written
//! where it has);
//! [`site::build`] adds rendering and the atomic swap. `serve` ([`server`]) previews that
//! site with live rebuilds and also mounts a simulated stand-in of the game
//! task-automation control service, a crate of its own.
//!
//! # The workspace
//!
//! Crates on floors; each uses the floors below it, and the compiler
//! refuses every other arrow. Each crate's `lib.rs` says what it may and
//! may not know; `tests/architecture.rs` keeps what no boundary can say
//! (the arrows inside a crate, the one owner of each kind of path, no
//! import circles in a folder).
//!
//! 1. `stdx` ([`atomic`], [`chars`], [`relpath`]) and [`i18n`] (every
//!    sentence in both languages): leaves, knowing no other crate; [`json`]
//!    (the strict parser with byte spans) knows `stdx` alone and no
//!    message: its errors are data the checker words.
//! 2. `activity-site-check`: the checker, from the source tree to
//!    diagnostics ([`tree`], [`source`], [`load`], [`model`], [`clock`],
//!    [`markdown`], [`kind`], [`validate`], [`diagnostics`], the site's
//!    [`layout`]). No HTTP, no async, no printing.
//! 3. [`terminal`] (what the commands print: diagnostics in each format,
//!    the progress bar, a closed pipe ended quietly), [`review`] (`diff`'s
//!    pure comparison) and [`import`]'s pure mapping (bytes in, files
//!    out): the checker below them, nothing else.
//! 4. [`site`]: the builder, with the live check and build and the
//!    rewrites; knows the checker and the review.
//! 5. [`lsp`]: the language server; the checker, the builder's live
//!    check and [`terminal`]'s `say`, no HTTP, no async runtime, no control
//!    crate.
//! 6. `activity-site-control`: the control-service stand-in `serve` mounts,
//!    on `activity-site-store` (the state it keeps: its state directory,
//!    configurations, settings, names, the log ring); both know `stdx` alone.
//! 7. This package: the commands ([`cli`], [`cmd`], [`root`]) and the
//!    programs that join the floors: [`server`], [`data_mcp`], [`publish`],
//!    [`bases`], [`fetch`] and `import`'s I/O ([`import::io`]), and what
//!    the commands and the agents' tools read from a checked tree:
//!    [`status`] and `version new` ([`version`]). It
//!    re-exports the crates under the module names the code uses
//!    (`activity_site::validate`, `activity_site::site`).
//!
//! An edit recompiles its crate and the floors above, never those below: a
//! rule's edit rebuilds the checker and up, a server's edit only this
//! package, the language server's its crate and this package.
//! `cargo test --workspace --locked` runs every crate's tests.
//!
//! # Code map
//!
//! Each module's own docs hold its details; this is the way round the
//! house. A command starts in `main.rs`, which hands the command line to
//! [`cli`] (clap, help in both languages) and runs it through [`cmd`] (one
//! glue function per subcommand, each file at most 150 lines; [`root`]
//! resolves the tree it works on once, into the [`root::Workspace`] every
//! command receives; [`terminal`] prints and draws the one progress bar). Then the data flows:
//!
//! - **Sources.** [`tree`] spells every source path; [`load`] reads a root
//!   as text into [`source`]; [`json`] parses it once, with byte spans.
//! - **Meaning.** [`model`]: the typed registry and documents, their times,
//!   ids, due times and published form; [`clock`]: "now" in each game's
//!   zone; [`markdown`]: the announcements' Markdown, for rules and pages.
//! - **Kinds.** [`kind`]: each kind of published document declared once
//!   (activity documents, announcements boards, kept files), in
//!   [`kind::ALL`]; every layer walks that list.
//! - **Checking.** [`validate`]: schema and rules to [`diagnostics`], the
//!   one diagnostic type and its renderers.
//! - **Publishing.** [`layout`] spells every path, content type and cache
//!   policy of the site; [`site`] builds it (a plan of cached parts run in
//!   parallel, written at the cost of what changed); [`version`] writes
//!   `version new`'s next files and [`status`] says what needs work;
//!   [`review`] is `diff`'s pure comparison;
//!   [`publish`] uploads it to S3-compatible storage.
//! - **Ways in and out.** [`import`] turns a published site back into a
//!   data tree; [`bases`] reads the bases of `diff` and `check
//!   --changed-since` (and the ids of the base `missing-id` gives back); [`fetch`] is the one HTTP GET of both.
//! - **Where people work.** [`lsp`] (the language server), [`data_mcp`]
//!   (the data tree as MCP tools for agents), [`server`] (`serve`: the site
//!   with live rebuilds and the control crate mounted beside it), and
//!   [`i18n`], every sentence in English and Chinese.
//!
//! **Adding a kind of document** with a file per locale (as the
//! announcements boards are; the one copy of this recipe, which a trial
//! kind followed in 21 files, 8 of them new, none of the shared code):
//! 1. `crates/check/src/kind/<name>.rs` with its `KIND` (sources, schema, rules, review
//!    findings, published names, its field of the index, its pages, the
//!    agents' tools), listed in [`kind::ALL`]; its source paths in
//!    [`tree`], its published names in [`layout`].
//! 2. `schema/<name>.schema.json` and its messages in both `.ftl` files.
//! 3. One module per layer, each listed in that layer's list: serde types
//!    (`crates/check/src/model/<name>.rs`), rules ([`validate::FileRules`] in
//!    [`validate::FILE_KINDS`]), publishing ([`site::types::Publish`] in
//!    [`site::kinds::ALL`], with a page template under
//!    `crates/site/src/templates/`) and review ([`review::Compare`] in
//!    [`review::kinds::ALL`]).
//!
//! `tests/kinds.rs` names the layer a kind lacks.
//!
//! # Invariants
//!
//! - A time is read from text one way ([`model::Time::parse`]), where text
//!   comes in: the rules (which report a time that is not one, with its
//!   place), a document's deserialization, `--now`, a request's times,
//!   the editor's hover and `import`'s order check. Nothing reads a time of
//!   a checked document again: renderers, `status`, `diff` and `version
//!   new` hold [`model::Time`]s (or a [`model::Written`] that says it is no
//!   time).
//! - Only [`layout`] spells a path of the site (`api/v1/...`); every other
//!   module asks it, so the paths, the index and the content types cannot drift.
//!   Likewise only [`tree`] spells a path of the sources (`games.json`, `data/...`).
//! - Every judgement against the present (`status`, `check`, hover) reads
//!   "now" through [`clock`], in the game's own zone; nothing else reads the
//!   clock for the data.
//! - Every file of a site is a function of the data and the tool's version,
//!   never of the moment it is built: the pages leave what depends on "now"
//!   (states, days left, progress, the now line, the out-of-date notice
//!   of [`model::freshness`]) to their script and the reader's clock, a
//!   feed's dates are facts of the data, and the manifest keys nothing by
//!   "now". Builds at different moments are byte-identical, so publishing
//!   a rebuild of unchanged data uploads nothing.
//! - Every kind of published document is one entry of [`kind::ALL`];
//!   what is the same for every kind (its sources' place, its schema read,
//!   compiled, published and served to agents, the checks a broken file
//!   waits for, the files the editor checks, the shape `import` knows it
//!   by, a review finding's code and messages, a `status` table's heading)
//!   is read from its declaration, never spelled per kind.
//! - Load, then compute: [`load::load`] is the one way a tree is read; a
//!   check, a fix, a build and `diff` read it once and work on the value
//!   (a test removes the root and builds from memory; `build` enters the
//!   loader once).
//! - No two files of a folder import each other, directly or round a
//!   longer circle: what both need goes to one side or to a small file of
//!   its own (`validate::rules::base`).
//! - [`publish`] reads the site's cache policies and layout from
//!   [`layout`], and `publish::plan` does no I/O.
//! - No rewrite loses a value: a file with a repeated key is an error, and
//!   `fmt` leaves files with errors alone.
//! - Every rule is O(n log n) or better in activities and diagnostics;
//!   columns count Unicode scalar values in every rule and output format.
//! - [`cli`] reads `--now` through the one reader of a flag's time
//!   (`validate::flags`), so a flag and a file get the same hints.
//! - Every sentence shown to a person is a message of both `.ftl` files with
//!   the same arguments; codes, keys, paths and quoted values are arguments,
//!   never translated.
//! - Every file the tool replaces is written through [`atomic`]; every URL
//!   it reads is fetched through [`fetch`], whose limit bounds memory.
//! - [`lsp`] never writes a file (edits go back to the editor); it checks
//!   through [`site::LiveCheck`],
//!   which gives what [`site::check_with`] gives on the same overlay, never
//!   through a pipeline of its own.
//! - [`data_mcp`] writes only `data/<game>/<locale>.json` of a game and locale
//!   that `games.json` lists, the file of a locale tag of a kind with a file
//!   per locale (`data/_announcements/<locale>.json`), and `games.json` itself (adding a game or a locale, every
//!   other value kept), in canonical form, and only when the check finds no
//!   error in what it writes; it never imports the control crate.
//! - No script reaches a page: announcements' Markdown is rendered with raw
//!   HTML as text, links limited to http(s), site paths and headings of the
//!   same announcement, then sanitised by `ammonia`
//!   ([`markdown::to_html`]).
//! - Only [`server`] and [`cmd`] join the data half and the control half.
//! - A build with any error writes nothing visible: files go into a staging
//!   directory beside the output, and a good build replaces the output
//!   with it in one rename, so a host never serves half a site
//!   (`site/write.rs`). A build costs what changed: the output's manifest
//!   names each file's checksum and inputs, a game whose inputs are
//!   unchanged is taken from the output as it is, and a game whose check
//!   found nothing is not checked again while its inputs and "now" leave
//!   its diagnostics equal (`site/manifest.rs`, [`site::cache`]).
//! - A publish uploads data before the index that names it and the index
//!   before the pages, records what it owns in a manifest before creating
//!   anything, and removes (with `--delete`) only what that manifest names.
//! - The output directory is owned: a build replaces only an absent, empty or
//!   marked (`.activity-site-output`) directory, never the root, anything
//!   above it or the inputs in it; `--force` is needed for anything else.
//! - Commands print through [`terminal`] (`print_out`, `say`), so a closed pipe ends
//!   the output quietly, never a panic, and the exit status stays the
//!   command's result (1 for a failed `check`, `fmt --check` or `diff`,
//!   3 for a `diff` with breaking changes).
//! - The state files are the user's: settings are the user's document with
//!   the updated leaves changed, configurations keep unknown fields, and a
//!   file the server cannot read is moved aside, never written over; what
//!   is not a regular file (a link, a FIFO, a folder) is left as it is.
//! - The same inputs give byte-identical output: no timestamps, no maps with
//!   random order, activities sorted stably; a build that takes parts from
//!   the build cache writes the same bytes as one without it (the cache's
//!   keys include the compression level), and the cache lives outside the output.

// The docs are the contributors' map of the house: they are built with
// `cargo doc --document-private-items`, where a link to a private item resolves.
#![allow(rustdoc::private_intra_doc_links)]

// The shared leaves, owned by `crates/stdx`, under the names the modules use.
pub use stdx::{atomic, chars, relpath};

// The crates below this one, under the module names the code uses.
pub use activity_site_check::{
    clock, diagnostics, i18n, json, kind, layout, load, markdown, model, source, tree, validate,
};
pub use activity_site_lsp as lsp;
pub use activity_site_review as review;
pub use activity_site_site as site;
pub use activity_site_terminal as terminal;

pub mod bases;
pub mod cli;
pub mod cmd;
pub mod data_mcp;
pub mod fetch;
pub mod import;
pub mod publish;
pub mod root;
pub mod server;
pub mod status;
pub mod version;
