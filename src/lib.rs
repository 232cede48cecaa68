//! `activity-site`: validate, build and serve the public activity API.
//!
//! # Bird's-eye view
//!
//! Contributors edit `games.json`, `data/<game>/<locale>.json` and the
//! announcements boards `data/_announcements/<locale>.json`. The
//! [`load`] phase reads them as text into the plain data of [`source`],
//! [`validate`] parses each file once with [`json`] (a tree that borrows the
//! text and knows every byte range and every repeated key), runs the JSON
//! Schemas of `schema/` and the rules and returns [`diagnostics::Diagnostic`]s, and
//! [`site`] turns a clean tree into `site/`: the JSON API, its index and
//! schema, iCalendar feeds and HTML pages. [`site::check()`] drives the first
//! two phases game by game on every core (checking is loading without
//! building; [`site::check_documents`] also keeps the typed documents,
//! [`validate::Kept`]: checked where their file has no error, as written
//! where it has);
//! [`site::build`] adds rendering and the atomic swap. `serve` ([`server`]) previews that
//! site with live rebuilds and also mounts a simulated stand-in of the game
//! task-automation control service, a crate of its own.
//!
//! # The workspace
//!
//! - This package, `activity-site` (`src/`): the validator, the site
//!   generator, the commands and `serve`; the code map below.
//! - `crates/control` (`activity-site-control`): the control-service
//!   stand-in `serve` mounts: the core, its REST API (`api`), its `/mcp`
//!   endpoint (`mcp`), the `Host`/`Origin` guard of both, the simulator
//!   program, with its own tests; its crate docs hold its map. It depends
//!   on nothing of this package: the compiler keeps the boundary, and an
//!   edit there does not recompile the generator. [`server`] and [`cmd`]
//!   are the only modules that name it.
//! - `crates/stdx` (`activity-site-stdx`): the leaves both need, one owner
//!   for both: [`atomic`], [`chars`], [`relpath`] (re-exported here under
//!   those names) and how a message names a JSON value's type
//!   ([`json::kind_of`]).
//!
//! `cargo test --workspace --locked` runs every crate's tests.
//!
//! # Code map
//!
//! - `main.rs`: thin; parses the command line, runs it, maps errors to exit 2.
//! - [`cli`]: clap types, and the re-exports of `publish::store::Addressing`
//!   and `import::LegacyChoice` that `publish --addressing` and `import
//!   --legacy` parse into. Their help texts are message identifiers of the
//!   `.ftl` files; `cli::help` reads `--lang` before clap does and hands
//!   clap the command with every help text, the usage line and the headings
//!   in that language (`cli::parse`, what `main` calls).
//! - [`cmd`]: one function per subcommand; glue only (each file at most
//!   130 lines).
//! - [`root`]: the root a command works on (`--root`, else the nearest
//!   folder with `games.json`) and the files named on its command line as
//!   paths of it.
//! - [`terminal`]: what the commands print and where: the closed-pipe-safe
//!   printers of stdout and stderr, diagnostics in every output format,
//!   colour and the progress bar only on a terminal.
//! - [`model`]: serde types of `games.json` and activity documents, the
//!   data's times ([`model::time`]: a checked document's times are
//!   [`model::Time`]s, read once by the fixed-position reader and written
//!   back byte for byte; a [`model::Draft`], the same document from a file
//!   nobody checked (a diff's base, an agent's draft, a file with errors),
//!   keeps each as [`model::Written`], a time or the text as it stands), the
//!   one rule for counting days ([`model::days`]), the one rule of when a
//!   game's data is due by its `updateMode` ([`model::freshness`], read by
//!   `status`, the `stale` rule, the pages and the ending-soon workflow) and
//!   a game's source conventions (`model::Conventions`: end seconds its
//!   source writes on purpose, warning rules it turns off), the form of
//!   an activity's stable `id` and the next fresh one ([`model::ids`]; the
//!   `missing-id` rule of [`validate`] pairs activities across a game's
//!   locales and gives them, `diff` and the calendars follow them), and a
//!   document as the site publishes it ([`model::published`]: the data's
//!   fields byte for byte, then each time as an instant with its offset
//!   ([`model::Time::instant`], the one reading of a wall time in a zone,
//!   DST gaps and folds as RFC 9557's `compatible`), the game's zone and
//!   its due time; the fields it adds, which `import` and `diff` drop
//!   when they read a published document); no I/O.
//! - [`json`]: the strict JSON parser with byte spans and duplicate keys; a leaf.
//! - [`layout`]: the published layout, one owner for every fact of it: the
//!   path of every file of the site, the typed index `api/v1/games.json`
//!   (written by `build`, read by `import`, `diff` and `publish`), and the
//!   content type and cache policy of every kind of file (asked by `serve`,
//!   `_headers` and `publish`), the names of the precompressed siblings, the
//!   files a host never serves (`serve` and `publish` share the list),
//!   the home page of each locale and the site's public address
//!   ([`layout::SiteUrl`], `--site-url`, under which every absolute link
//!   is made); it depends on [`model`] only. The
//!   headers each file is served with are `_headers`' ([`site::headers`]),
//!   which `serve` reads back.
//! - [`kind`]: the kinds of published document (activity documents,
//!   announcements boards, the files kept verbatim in `data/_files/`), each
//!   declared in one module of `src/kind/` as a [`kind::Kind`]: its source
//!   paths, its schema (the file a root may ship, the built-in copy, where
//!   the site publishes it, the agents' resource), its rules, the breaking
//!   changes and warnings a review may report about it (their codes and
//!   messages, which [`site::diff`] takes from it), the heading of its
//!   `status` table, whether the editor checks it and how `import`
//!   recognises it. [`kind::ALL`] lists them; the loader, the validator,
//!   the build, the agents, the editor, `import`, `diff` and `status` walk
//!   or ask the list. Depends on [`tree`], [`layout`] and
//!   [`diagnostics`].
//!
//!   **Adding a kind of document** whose sources are one file per
//!   locale (as the announcements boards are; the one copy of this
//!   recipe, which a trial kind followed in 17 files, 6 of them new):
//!   1. `src/kind/<name>.rs` with its `KIND` (sources, schema, rule
//!      codes, review findings, `status` heading, shape, published
//!      names (with its index field and its pages' template), and for
//!      a file per locale what the agents read of its
//!      tools `read_<name>`, `check_<name>`, `write_<name>`, which
//!      `data_mcp` makes from it), a `pub mod` line and a line in [`kind::ALL`] in
//!      `kind/mod.rs`; its source folder and schema paths in [`tree`],
//!      its published names in [`layout`] (their owners).
//!   2. `schema/<name>.schema.json`, and its messages in both `.ftl`
//!      files (a rule with a code of its own also needs the code in
//!      [`diagnostics`], `rule-<code>` messages, a section of
//!      `CONTRIBUTING.md` and a fixture folder; a rule may report under
//!      `schema` instead).
//!   3. One module per layer, each implementing that layer's trait with
//!      `pub mod` and one line in that layer's list: its serde types
//!      (`model/<name>.rs`), its rules (`validate/<name>.rs`, a
//!      [`validate::FileRules`] in [`validate::FILE_KINDS`]), what it
//!      publishes (`site/<name>.rs`, a [`site::types::Publish`] in
//!      [`site::kinds::ALL`]: its files, index entries, home-page links,
//!      `_headers` lines, `status` columns and `llms.txt` line) and what a
//!      review says of it (`site/diff/<name>.rs`, a
//!      [`site::diff::Compare`] in [`site::diff::kinds::ALL`]). Each trait
//!      has defaults for what a kind may lack; a page needs its template
//!      under `src/site/templates/`.
//!
//!   The check, the live check, the build, `fmt`, `check --fix`, `status`,
//!   the agents' `status` and `diff` walk those lists; `import`
//!   recognises and places the kind's files from its declaration; the
//!   registry rule refuses a game alias over any name a kind publishes.
//!   `tests/kinds.rs` walks [`kind::ALL`] and names the layer a kind
//!   lacks. A kind's published names declare the field of the index that
//!   lists its documents ([`kind::Kind::index_field`], the boards'
//!   `announcements`) and its pages' folder, template and words
//!   ([`kind::Pages`]); a review reports its titled entries under the
//!   field its comparison names. Still named after the announcements:
//!   `import`'s summary. The agents' tools of a kind carry its name
//!   (`read_announcements`, ...). A finding a review reports is a `static` of its kind's
//!   module that its comparison names where it reports it.
//! - [`tree`]: the source tree's layout, one owner of every source path
//!   (`games.json`, `data/<game>/<locale>.json`, the announcements
//!   `data/_announcements/<locale>.json`, the verbatim folder `data/_files/`,
//!   the schemas of `schema/`, the tool's state folder `.activity-site/`
//!   with the build cache); folders of `data/` starting with `_` are the
//!   tool's own, never games; a leaf.
//! - [`clock`]: "now", one owner: one instant (the clock read once, or
//!   `--now`) seen by each game as a local time of its own `timeZone`;
//!   depends on [`model`] only.
//! - [`atomic`], [`chars`], [`relpath`]: the shared leaves of `crates/stdx`
//!   (the one atomic file write; the base table of invisible characters,
//!   which the `whitespace` rule and the control service's names extend,
//!   and the one cut of UTF-8 text at a character boundary; a relative path
//!   written with `/` whatever the platform).
//! - [`fetch`]: the one HTTP GET of `diff` and `import`: timeout, a size
//!   limit per body, a bound on bodies in flight, one set of errors; a leaf.
//! - [`i18n`]: the languages the tool speaks (en-US, zh-CN): which one is
//!   chosen (`--lang`, `LC_ALL`, `LC_MESSAGES`, `LANG`), and every message
//!   as a Fluent identifier with arguments ([`i18n::Msg`]), rendered only
//!   when printed from `src/i18n/<lang>.ftl`; a leaf every module may name.
//! - [`markdown`]: the Markdown of announcements, one reading for the
//!   rules (links that are neither http(s) nor site paths, `#` links that
//!   name no heading of their text, raw HTML, by byte range) and the pages
//!   (pulldown-cmark with heading ids under the announcement's anchor, then
//!   `ammonia`, which keeps `id` on headings only); a leaf.
//! - [`source`]: what `load` hands `validate` (source text, a game's files,
//!   the opened root, a parsed file); data, no I/O.
//! - [`load`]: reads the root, game by game, as text; encoding problems
//!   only. Each reader also takes an overlay of unsaved texts.
//! - [`validate`]: parsing, schema and rules to `Vec<Diagnostic>`; no I/O.
//!   The activity documents are checked game by game against the
//!   registry ([`validate::Validator::game`]); a kind checked file by
//!   file (the announcements boards) goes through the same parser, its
//!   own schema and its [`validate::FileRules`]
//!   ([`validate::announcements`]), found by [`validate::rules_of`].
//!   The forms people type a date-time in (an input method's full-width
//!   digits, `2026年12月3日 10:00`, `2026.10.15 04:00`, a date without its
//!   year) and their exact rewrites have one owner, `validate/rules/dates.rs`:
//!   the `datetime` rule offers them as fixes, and the rules read a time as
//!   its fix does. A byte-order mark is the parser's ([`json`]): one
//!   mistake with its fix, the text behind it read as usual.
//! - [`diagnostics`]: the `Diagnostic` type and its renderers.
//! - [`site`]: the builder: validated data to files (JSON API, index,
//!   pages through minijinja, iCalendar, `_headers`, precompressed
//!   siblings) through a plan of parts run in parallel and cached by their
//!   inputs ([`site::cache`]), written at the cost of what changed since the
//!   output's manifest. Split along its jobs, with `site/mod.rs` a front
//!   door that holds no code: [`site::types`] (the shared types and the
//!   [`site::types::Publish`] trait, at the bottom), [`site::kinds`] (the
//!   one list of the kinds published file by file), [`site::check`](mod@site::check) (the check of a tree, game by game),
//!   [`site::api`] (the JSON files and the index), [`site::contract`] (the
//!   published contract: a JSON Schema for every JSON file, the OpenAPI
//!   description of every public path, the RFC 9727 API catalog),
//!   [`site::render`] (the
//!   plan of parts), [`site::output`] (`build`: check, render, swap in);
//!   each imports only downwards, and every part names what it uses by
//!   the sibling that owns it. Beside them: the renderers of one kind of
//!   file each ([`site::pages`], [`site::ics`], [`site::headers`] for
//!   `_headers`, [`site::compress`] for the siblings), the pure comparison behind `diff`
//!   ([`site::diff`]: one file's bytes on both sides to its status, and,
//!   for a kind's document, to what its kind's [`site::diff::Compare`]
//!   says (one file per kind in `site/diff/`, listed in
//!   [`site::diff::kinds::ALL`] and found by the path the kind publishes):
//!   its changes in the clients' terms (removals placed against now,
//!   carried activities), its breaking changes and warnings; for a
//!   document or the index, a published field removed or retyped is
//!   breaking and one added is not (`site::diff::contract`); a file
//!   published under two names reported once, and the four renderings), the next version of a game in every locale
//!   ([`site::version`], behind `version new` and the agents'
//!   `new_version`), and the check kept between an editor's keystrokes
//!   ([`site::LiveCheck`]), the kept files of `data/_files/` (published
//!   last, never over a generated file) and `llms.txt` from the registry;
//!   no HTTP, no async. [`site::announcements`] publishes each
//!   board as `api/v1/anno-<locale>.json` (and `api/v1/anno.json` for the
//!   site's default locale), an Atom feed and a sanitised page, named in
//!   the index with its checksum; data before the index before the pages
//!   on `publish`. [`site::pages`] lays out every page (the boards' too)
//!   and imports nothing of [`site::announcements`]; the words of every
//!   page are messages of the `.ftl` files, like every other sentence.
//! - [`review`]: the `diff` command's library: reading the bases (a URL
//!   through [`fetch`], a folder, a git revision through the `git` command
//!   line, built into a temporary folder) and streaming them file by file
//!   into [`site::diff`], which also names the pairs of names to merge and
//!   the documents no index lists; `cmd/diff.rs` only reads the flags and prints.
//!   It also owns `check --changed-since REF` ([`review::changed_since`]):
//!   the tree at a git revision, exported the same way and checked, against
//!   today's diagnostics, keyed by rule, file and message (not by line), so
//!   only what a change introduced is reported; the clock's findings
//!   (`stale`, `upcoming-version`) are left out, for the scheduled
//!   ending-soon workflow.
//! - [`import`]: published API files to a data tree (`import --from`): a
//!   pure mapping (bytes in, files out: each file the kind its shape
//!   says; activity documents placed game by game through the registry,
//!   a kind published once per locale, the announcements, by the names
//!   its [`kind::Kind`] declares; an explicit zone per game), and
//!   [`import::io`], which reads a site (root, `api/v1`, `api/v1/activity`,
//!   as `diff` reads bases through [`layout::site_root`]) or a flat folder or
//!   fetches a site through [`fetch`] (without an index: the games, names
//!   and locales its `llms.txt` gives, read by [`layout::llms_site`], and
//!   each game asked for the locales it could have), sorts every file into
//!   imported, kept (`data/_files/`), regenerated or skipped, recognises a
//!   legacy `api/v1/activities.json` that is one game's document (an alias
//!   of the game in `games.json`, or kept frozen), marks a zone it assumed
//!   (`timeZoneAssumed`), compares the result with the root and writes it
//!   through [`atomic`]; `cmd/import.rs` only sets the options and prints.
//! - [`publish`]: a built site to S3-compatible storage: the pure plan
//!   (`publish::plan`: local files and the store's manifest to ordered
//!   uploads and removals), the storage I/O (`publish::store`,
//!   `object_store`) and the refusal of a stale site (`publish::current`:
//!   the site's documents and index must be what the checked data builds).
//!   Never touches an object its manifest does not name.
//! - [`lsp`]: the language server (`activity-site lsp`, stdio): `check`'s
//!   diagnostics on the open buffers overlaid on the disk
//!   ([`site::LiveCheck`], [`site::check_with`] kept between keystrokes, with
//!   a [`source::Overlay`]), quick fixes from
//!   [`diagnostics::Fix`], `fmt` as formatting, hover on times; no HTTP.
//! - [`data_mcp`]: the `mcp` command: the data tree as MCP tools for
//!   agents (`activity-site mcp`, stdio): list, status, read, check a draft in place (exact fixes
//!   applied on request through [`site::rewrite`]), write a clean draft
//!   in canonical form through [`atomic`], add a game or a locale to
//!   `games.json`; resources for the schemas and the rules. Separate from the control crate's `/mcp`, which serves the control service.
//! - [`server`]: the composition root: router, static files, watch, reload.
//!   `server::control_half` opens the control service from `serve`'s
//!   flags and mounts the control crate's REST API and `/mcp` on it; `server::process`
//!   holds the logs, the URL shown and the shutdown signals. The public API
//!   (`/api/v1/`) is answered before routing; a static file's response
//!   headers are worked out once when it is read, not per request. The
//!   watcher tells each rebuild which inputs changed, and an edit is served
//!   before its precompressed siblings are made (a second build adds them).
//!
//! # Invariants
//!
//! - [`model`] and [`json`] depend on no other module of the crate; [`diagnostics`]
//!   only on the leaf [`chars`].
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
//!   is read from its declaration, never spelled per kind. [`kind`]
//!   imports only [`tree`], [`layout`] and [`diagnostics`].
//! - [`validate`] never imports [`load`]: both depend on [`source`].
//! - No two files of a folder import each other, directly or round a
//!   longer circle: what both need goes to one side or to a small file of
//!   its own (`validate::rules::base`).
//! - [`load`], [`validate`], [`site`] and [`import`] know nothing about HTTP,
//!   axum or tokio; [`import`] depends on [`model`], [`json`] and [`layout`]
//!   only, except [`import::io`], its one part that touches the file system
//!   or the network (through [`fetch`] and [`atomic`]).
//! - [`site`] does not import [`publish`]; [`publish`] reads the site's
//!   cache policies and layout from [`layout`], and `publish::plan` does no I/O.
//! - No rewrite loses a value: a file with a repeated key is an error, and
//!   `fmt` leaves files with errors alone.
//! - Every rule is O(n log n) or better in activities and diagnostics;
//!   columns count Unicode scalar values in every rule and output format.
//! - The control crate depends on `stdx` alone of the workspace (the
//!   compiler keeps it from the generator); inside it, the core knows no
//!   HTTP and its REST API and `/mcp` never import each other
//!   (`tests/architecture.rs`).
//! - [`fetch`], [`tree`] and [`i18n`] import nothing of the crate; the
//!   leaves of `stdx` cannot.
//! - Every sentence shown to a person is a message of both `.ftl` files with
//!   the same arguments; codes, keys, paths and quoted values are arguments,
//!   never translated.
//! - Every file the tool replaces is written through [`atomic`]; every URL
//!   it reads is fetched through [`fetch`], whose limit bounds memory.
//! - [`lsp`] never writes a file (edits go back to the editor) and imports
//!   neither the control crate nor HTTP; it checks through [`site::LiveCheck`],
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
//!   directory beside the output as they are finished (memory holds the
//!   games in flight, not the site), and a good build replaces the output
//!   directory with it in one rename, so a host never serves half a site.
//!   What the home pages show of each game is rendered with the game and
//!   kept on disk (`site::cards`) until the pages are made, one at a time,
//!   each written to its file as it is rendered (a home page of a large
//!   site is tens of megabytes) and its gzip sibling compressed from the
//!   file, in the pieces `site::compress::gzip_bytes` uses too.
//!   A build costs what changed: the site's manifest
//!   (`layout::OUTPUT_MANIFEST`) names each file's checksum and what it was
//!   built from, and depends on the data alone, like every file of the
//!   site; the keys of the build's warnings, which depend on the moment
//!   (`stale`), sit beside it in `layout::OUTPUT_WARNINGS`, so the next
//!   `build` or `serve` rebuild shows in full only what is new and counts
//!   the rest. A game whose inputs' fingerprint is unchanged is taken
//!   from the output as it is, and the staging directory is the previous
//!   output kept beside it (`.<out>.previous`; a first build makes it by
//!   hard links), in which only the files that
//!   differ are replaced (the files it shares with the output are told by
//!   their inode, without reading its manifest). A file of the output is
//!   reused (hard-linked, or copied) only when the output is marked as the
//!   tool's own and the file checks out against the manifest (size, not
//!   modified since); a tree with nothing changed writes nothing. A game
//!   whose check found nothing is not checked again while the key of its
//!   check's inputs (tool, schemas, registry entry, data files) is the one
//!   the manifest records and "now" is still inside every one of its
//!   version windows (the only rules that read "now" find nothing there):
//!   equal inputs, equal diagnostics.
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
//!
//! `tests/architecture.rs` fails when an import breaks the direction above.

// The docs are the contributors' map of the house: they are built with
// `cargo doc --document-private-items`, where a link to a private item resolves.
#![allow(rustdoc::private_intra_doc_links)]

// The shared leaves, owned by `crates/stdx`, under the names the modules use.
pub use stdx::{atomic, chars, relpath};

pub mod cli;
pub mod clock;
pub mod cmd;
pub mod data_mcp;
pub mod diagnostics;
pub mod fetch;
pub mod i18n;
pub mod import;
pub mod json;
pub mod kind;
pub mod layout;
pub mod load;
pub mod lsp;
pub mod markdown;
pub mod model;
pub mod publish;
pub mod review;
pub mod root;
pub mod server;
pub mod site;
pub mod source;
pub mod terminal;
pub mod tree;
pub mod validate;
