//! Guards what the compiler cannot: the module dependency direction written
//! in `src/lib.rs` (one crate), the halves of the control crate (its core
//! knows no HTTP, its endpoints not each other), and the one owner of the
//! published layout (`src/layout.rs`). That the control crate never names
//! the site generator is the compiler's: it does not depend on it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::util::crate_root;

/// Top-level modules each module may import from the crate.
const ALLOWED: &[(&str, &[&str])] = &[
    // The messages in every language: a leaf that every module may name
    // (see `EVERYWHERE`).
    ("i18n", &[]),
    ("model", &[]),
    ("diagnostics", &["chars"]),
    ("json", &[]),
    // One HTTP fetch with limits, for every module. (`atomic`, `chars` and
    // `relpath`, named below, are the leaves of crates/stdx, which the root
    // re-exports under those names.)
    ("fetch", &[]),
    // The Markdown of announcements: what the rules look at, what the pages show.
    ("markdown", &[]),
    // The published layout: paths, the typed index, content types and
    // cache policies. A leaf beside `model`, so the pure `import` may read it.
    ("layout", &["model"]),
    // The source tree's paths (`games.json`, `data/...`): a leaf, so every
    // module that names a source file asks it.
    ("tree", &[]),
    // "Now", read once and seen by each game in its own time zone.
    ("clock", &["model"]),
    // The kinds of document, each declared in one module: their source
    // paths, schemas, rules, outputs and review; every part of the data
    // half walks the list.
    ("kind", &["diagnostics", "layout", "tree"]),
    ("source", &["model", "diagnostics", "json", "tree", "kind"]),
    // The root a command works on and the files it names: above the tree.
    ("root", &["relpath", "tree", "clock"]),
    // What the commands print and where: the diagnostics' renderers.
    ("terminal", &["diagnostics"]),
    // `publish` and `import` for the value enums their flags parse into,
    // `layout` for the site address `--site-url` parses into.
    (
        "cli",
        &[
            "diagnostics",
            "model",
            "publish",
            "import",
            "clock",
            "layout",
            // `--now` is explained as a file's time is (`validate::flags`).
            "validate",
        ],
    ),
    (
        "load",
        &["relpath", "model", "diagnostics", "source", "tree", "kind"],
    ),
    // Not `load`: the validator reads what the loader produced, never how.
    // `kind` for the page folders a game id may not take; `markdown` for
    // the announcements' links and raw HTML.
    (
        "validate",
        &[
            "model",
            "diagnostics",
            "json",
            "source",
            "chars",
            "markdown",
            "tree",
            "clock",
            "kind",
        ],
    ),
    (
        "site",
        &[
            "chars",
            "relpath",
            "model",
            "diagnostics",
            "source",
            "load",
            "validate",
            "layout",
            "atomic",
            "markdown",
            "tree",
            "clock",
            "kind",
        ],
    ),
    // The review's pure comparison (`diff`), a crate of its own.
    ("review", &["model", "diagnostics", "layout", "kind"]),
    // The `diff` command's library: the bases read (a URL through `fetch`, a
    // folder, a git revision built by `site`) and streamed into `review`.
    (
        "bases",
        &[
            "review",
            "relpath",
            "clock",
            "diagnostics",
            "fetch",
            "layout",
            "load",
            "model",
            "site",
            "tree",
            "validate",
        ],
    ),
    // The pure mapping of an import; its `io` part has a row of its own (`PARTS`).
    ("import", &["model", "json", "layout", "tree", "kind"]),
    // `terminal` for the one way bytes are shown to people.
    ("publish", &["relpath", "site", "layout", "terminal"]),
    // What `status` and the agents' tool of that name read from a checked tree.
    (
        "status",
        &["site", "validate", "model", "kind", "tree", "chars"],
    ),
    // `version new` and the agents' `new_version`: a checked game to the
    // next version's files, through the one atomic write.
    (
        "version",
        &[
            "site",
            "validate",
            "source",
            "diagnostics",
            "model",
            "tree",
            "atomic",
        ],
    ),
    // The agents' data tools: the check pipeline and the one atomic write; never control.
    (
        "data_mcp",
        &[
            "review",
            "site",
            "source",
            "load",
            "validate",
            "diagnostics",
            "model",
            "atomic",
            "tree",
            // The server's now in `status`.
            "clock",
            "kind",
            "status",
            "version",
        ],
    ),
    // The language server reuses the check pipeline; never HTTP, never control.
    (
        "lsp",
        &[
            "relpath",
            "site",
            "source",
            "validate",
            "diagnostics",
            "model",
            "chars",
            "tree",
            "clock",
            "kind",
            // Its log lines for the editor go through the one stderr printer.
            "terminal",
        ],
    ),
    (
        "server",
        &[
            "relpath",
            "site",
            "layout",
            "source",
            "load",
            "validate",
            "model",
            "diagnostics",
            "terminal",
            "tree",
        ],
    ),
    (
        "cmd",
        &[
            "review",
            "relpath",
            "cli",
            "import",
            "bases",
            "site",
            "layout",
            "atomic",
            "source",
            "load",
            "validate",
            "model",
            "diagnostics",
            "root",
            "terminal",
            "server",
            "publish",
            "lsp",
            "data_mcp",
            // Display widths of table cells (`status`).
            "chars",
            "tree",
            "clock",
            "kind",
            "status",
            "version",
        ],
    ),
];

/// Leaves every module may import: the messages of every language, since
/// whatever a module says to a person goes through them.
const EVERYWHERE: &[&str] = &["i18n"];

/// Parts of a module held to a row of their own instead of their module's:
/// a path under `src/` without `.rs`, and the top-level modules it may import.
const PARTS: &[(&str, &[&str])] = &[
    // Reading folders and URLs and writing the root: the one part of
    // `import` that reaches the fetch, the atomic write and the loader's
    // built-in schemas.
    (
        "import/io",
        // `source` for the built-in registry schema, its one owner.
        &[
            "relpath", "model", "json", "layout", "fetch", "atomic", "load", "source", "tree",
            "kind",
        ],
    ),
];

/// Crate modules a source file names through `crate::<module>`.
fn imports(text: &str) -> BTreeSet<String> {
    // Comments and docs may name any module (`[`crate::load`]` in a `//!`
    // paragraph); only code imports.
    let text: String = text
        .lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    names_after(&text, "crate::")
}

/// The names that follow `prefix` in `code`: `prefix::name`, and each
/// top-level name of a group `prefix::{a, b::c}`.
fn names_after(code: &str, prefix: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let name_of = |text: &str| -> String {
        text.trim()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    for (i, _) in code.match_indices(prefix) {
        let rest = &code[i + prefix.len()..];
        let names: Vec<String> = match rest.strip_prefix('{') {
            Some(group) => group[..group.find('}').unwrap_or(group.len())]
                .split(',')
                .map(name_of)
                .collect(),
            None => vec![name_of(rest)],
        };
        found.extend(names.into_iter().filter(|n| !n.is_empty()));
    }
    found
}

fn module_of(path: &Path, src: &Path) -> Option<String> {
    let rel = path.strip_prefix(src).ok()?;
    let first = rel.components().next()?.as_os_str().to_str()?;
    Some(first.trim_end_matches(".rs").to_string())
}

/// `import/io` for `src/import/io.rs`, `import` for `src/import/mod.rs`.
fn part_of(path: &Path, src: &Path) -> String {
    let rel = path
        .strip_prefix(src)
        .expect("under src")
        .to_string_lossy()
        .replace('\\', "/");
    let rel = rel.trim_end_matches(".rs");
    rel.strip_suffix("/mod").unwrap_or(rel).to_owned()
}

/// Code of a source file: no comments, and nothing from `#[cfg(test)]` on.
fn code_of(text: &str) -> String {
    text.lines()
        .take_while(|line| !line.trim_start().starts_with("#[cfg(test)]"))
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The source folders of the packages whose modules the table holds:
/// the root's and the checker's modules one by one, and the builder and
/// the review each as one module (their files name their own parts
/// through `crate::`).
const SOURCES: &[(&str, Option<&str>)] = &[
    ("src", None),
    ("crates/check/src", None),
    ("crates/site/src", Some("site")),
    ("crates/review/src", Some("review")),
];

/// The top-level modules of a crate's source folder.
fn own_modules(src: &Path) -> BTreeSet<String> {
    std::fs::read_dir(src)
        .expect("a source folder")
        .filter_map(|e| Some(e.ok()?.path().file_stem()?.to_str()?.to_owned()))
        .collect()
}

#[test]
fn modules_import_only_in_the_allowed_direction() {
    let mut violations = Vec::new();
    for (folder, whole) in SOURCES {
        let src = crate_root().join(folder);
        let own = whole.map(|_| own_modules(&src)).unwrap_or_default();
        for entry in walkdir::WalkDir::new(&src) {
            let entry = entry.expect("src is readable");
            if entry.path().extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let Some(module) = whole
                .map(str::to_owned)
                .or_else(|| module_of(entry.path(), &src))
            else {
                continue;
            };
            if module == "lib" || module == "main" {
                continue;
            }
            let part = part_of(entry.path(), &src);
            let allowed = PARTS
                .iter()
                .find(|(p, _)| part == *p || part.starts_with(&format!("{p}/")))
                .or_else(|| ALLOWED.iter().find(|(m, _)| *m == module))
                .unwrap_or_else(|| {
                    panic!("module `{module}` is not in the architecture table; add it")
                })
                .1;
            let text = std::fs::read_to_string(entry.path()).expect("source is text");
            for import in imports(&text) {
                if import != module
                    && !own.contains(&import)
                    && !allowed.contains(&import.as_str())
                    && !EVERYWHERE.contains(&import.as_str())
                {
                    violations.push(format!(
                        "{} imports crate::{import}",
                        entry.path().display()
                    ));
                }
            }
        }
    }
    assert!(
        violations.is_empty(),
        "dependency direction broken:\n{}",
        violations.join("\n")
    );
}

/// Issue 11: the data types `validate` takes (`LoadedGame`, `Project`, the
/// parsed `JsonFile`) live beside `model`, so the validator never imports the loader.
#[test]
fn the_validator_does_not_import_the_loader() {
    let src = crate_root().join("crates/check/src/validate");
    for entry in walkdir::WalkDir::new(&src) {
        let entry = entry.expect("src is readable");
        if entry.path().extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(entry.path()).expect("source is text");
        assert!(
            !imports(&text).contains("load"),
            "{} imports crate::load",
            entry.path().display()
        );
    }
    let allowed = ALLOWED.iter().find(|(m, _)| *m == "validate").unwrap().1;
    assert!(!allowed.contains(&"load"));
}

/// Issue 18: `import` is a pure mapping (bytes in, bytes out); reading
/// folders, fetching URLs and writing the root live in `import::io` alone,
/// so no other part of `src/import/` names the file system or the network.
#[test]
fn only_import_io_touches_the_file_system_or_the_network() {
    const IO: &[&str] = &[
        "std::fs",
        "std::net",
        "File::",
        "read_dir",
        "reqwest",
        "tokio",
        "walkdir",
        "crate::fetch",
        "crate::atomic",
    ];
    let src = crate_root().join("src");
    let mut found = Vec::new();
    let mut parts = 0;
    for entry in walkdir::WalkDir::new(src.join("import")) {
        let entry = entry.expect("src is readable");
        if entry.path().extension().is_none_or(|e| e != "rs") {
            continue;
        }
        parts += 1;
        let part = part_of(entry.path(), &src);
        let code = code_of(&std::fs::read_to_string(entry.path()).expect("source is text"));
        let names: Vec<&str> = IO.iter().copied().filter(|n| code.contains(n)).collect();
        if part == "import/io" {
            assert!(
                !names.is_empty(),
                "import/io does no I/O any more: update this test"
            );
        } else if !names.is_empty() {
            found.push(format!("{part} names {}", names.join(", ")));
        }
    }
    assert!(parts >= 2, "src/import/ holds the core and its io part");
    assert!(
        found.is_empty(),
        "I/O outside import::io:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_import_scanner_sees_grouped_and_plain_imports() {
    let found = imports(
        "//! Reads what [`crate::load`] made.\nuse crate::{model::Game, diagnostics};\nlet x = crate::site::build();",
    );
    let expected: BTreeSet<String> = ["model", "diagnostics", "site"].map(String::from).into();
    assert_eq!(found, expected);
}

/// Every line of code under `src/` but `owner` (a path relative to `src/`),
/// as `(file, line number, line)`: comments, and unit tests (after
/// `#[cfg(test)]`), are not code that decides a path.
fn code_lines_but(owner: &str) -> Vec<(String, usize, String)> {
    code_lines_under_but(&crate_root().join("src"), owner)
}

/// [`code_lines_but`] under another source folder (a crate's `src/`).
fn code_lines_under_but(src: &Path, owner: &str) -> Vec<(String, usize, String)> {
    let mut lines = Vec::new();
    for entry in walkdir::WalkDir::new(src) {
        let entry = entry.expect("src is readable");
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let rel = path
            .strip_prefix(src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if rel == owner {
            continue;
        }
        let text = std::fs::read_to_string(path).expect("source is text");
        for (number, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("#[cfg(test)]") {
                break;
            }
            if !line.trim_start().starts_with("//") {
                lines.push((rel.clone(), number + 1, line.to_owned()));
            }
        }
    }
    lines
}

/// Issue 18: the site's paths have one owner. Code outside `src/layout.rs`
/// asks it instead of spelling `api/v1`; prose for people (help text, a
/// page's hint) may name the folder.
#[test]
fn only_the_layout_spells_the_published_paths() {
    const PROSE: &[&str] = &["cli.rs", "cmd/import.rs", "site/pages.rs"];
    let mut spelled = Vec::new();
    for (rel, number, line) in code_lines_but("layout.rs") {
        // `api/v1` not inside a longer name (`/openapi/v1.json`).
        let names_api = line.match_indices("api/v1").any(|(i, _)| {
            !line[..i]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric())
        });
        if !names_api {
            continue;
        }
        if PROSE.contains(&rel.as_str()) && !line.contains("format!") && !line.contains(".join(") {
            continue;
        }
        spelled.push(format!("{rel}:{number}: {}", line.trim()));
    }
    assert!(
        spelled.is_empty(),
        "paths of the site spelled outside src/layout.rs:\n{}",
        spelled.join("\n")
    );
}

/// Issue 31: the source tree's paths have one owner. Code outside
/// `src/tree.rs` asks it instead of spelling `games.json`, `data/...` or
/// `schema/...` as a path; messages for people may name them.
#[test]
fn only_the_tree_spells_the_source_paths() {
    const SPELLINGS: &[&str] = &[
        "\"games.json\"",
        "\"data/",
        "join(\"data\")",
        "\"data\"]",
        "[\"data\"",
        "\"schema/",
        "\".activity-site\"",
    ];
    let spelled: Vec<String> = code_lines_but("tree.rs")
        .into_iter()
        .filter(|(_, _, line)| SPELLINGS.iter().any(|s| line.contains(s)))
        .map(|(rel, number, line)| format!("{rel}:{number}: {}", line.trim()))
        .collect();
    assert!(
        spelled.is_empty(),
        "source paths spelled outside src/tree.rs:\n{}",
        spelled.join("\n")
    );
}

/// The control crate's source folder.
fn control_src() -> std::path::PathBuf {
    crate_root().join("crates/control/src")
}

/// The parts of the control crate a file at its top names, through
/// `crate::X` or `super::X`.
fn control_parts_named(code: &str) -> BTreeSet<String> {
    let mut found = names_after(code, "crate::");
    found.extend(names_after(code, "super::"));
    found
}

/// Issue 47: the simulator (the program `activity-site backend`) reaches
/// the server only through the protocol type: it reads `protocol::Command`
/// and writes `protocol::Answer`, and names none of the server's side of
/// the control crate (the supervisor, the programs behind the server, the `Control`
/// handle and what it re-exports).
#[test]
fn the_simulator_reaches_the_server_only_through_the_protocol_type() {
    // What the simulator program is made of besides the protocol: its job
    // runner and operator, the log, errors, state files, the name rule.
    const SIMULATOR_USES: &[&str] = &[
        "protocol", "runner", "operator", "logs", "error", "state", "configs",
    ];
    let path = control_src().join("simulator.rs");
    let code = code_of(&std::fs::read_to_string(&path).expect("source is text"));
    let named = control_parts_named(&code);
    let outside: Vec<&String> = named
        .iter()
        .filter(|n| !SIMULATOR_USES.contains(&n.as_str()))
        .collect();
    assert!(
        outside.is_empty(),
        "the simulator reaches the server past the protocol: {outside:?}"
    );
    assert!(named.contains("protocol"), "{named:?}");
    for used in ["Command::parse", "Answer::of"] {
        assert!(
            code.contains(used),
            "the simulator reads commands with {used}"
        );
    }
}

/// Issue 47: the backend's commands are built in one place,
/// `protocol::Command`; no other file of the control crate spells one as
/// text.
#[test]
fn backend_commands_are_spelled_only_by_the_protocol_type() {
    const VERBS: &[&str] = &[
        "task status",
        "task run",
        "task single",
        "task stop",
        "extension list",
        "extension reload",
        "extension status",
        "extension schema",
        "extension config",
        "extension run",
        "extension stop",
        "operator list",
        "operator help",
        "operator call",
        "game screenshot",
        "help\\n",
        "exit\\n",
    ];
    let mut spelled = Vec::new();
    for (rel, number, line) in code_lines_under_but(&control_src(), "protocol.rs") {
        for verb in VERBS {
            if line.contains(&format!("\"{verb}")) {
                spelled.push(format!("{rel}:{number}: {}", line.trim()));
            }
        }
    }
    assert!(
        spelled.is_empty(),
        "backend commands spelled outside protocol::Command:\n{}",
        spelled.join("\n")
    );
}

/// The endpoints of the control crate, which share its core and the guard.
const CONTROL_ENDPOINTS: &[&str] = &["api", "mcp"];

/// One crate, two halves the compiler does not keep apart: the control
/// core (every module of the crate but the endpoints and `guard`) names
/// neither endpoint nor the guard (it knows no HTTP), the REST API and the
/// MCP endpoint never name each other, and `guard` names nothing of the
/// crate.
#[test]
fn the_control_core_knows_no_http_and_its_endpoints_not_each_other() {
    let src = control_src();
    let mut violations = Vec::new();
    let mut endpoints_seen = BTreeSet::new();
    for entry in walkdir::WalkDir::new(&src) {
        let entry = entry.expect("the control crate is readable");
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "rs") || path.starts_with(src.join("bin")) {
            continue;
        }
        let Some(module) = module_of(path, &src) else {
            continue;
        };
        if module == "lib" {
            continue;
        }
        let code = code_of(&std::fs::read_to_string(path).expect("source is text"));
        let mut named = names_after(&code, "crate::");
        // A file at the top names the crate's modules through `super::` too.
        if path.parent() == Some(src.as_path()) {
            named.extend(names_after(&code, "super::"));
        }
        let forbidden: Vec<&str> = if module == "guard" {
            named.iter().map(String::as_str).collect()
        } else if CONTROL_ENDPOINTS.contains(&module.as_str()) {
            endpoints_seen.insert(module.clone());
            CONTROL_ENDPOINTS
                .iter()
                .copied()
                .filter(|other| *other != module)
                .collect()
        } else {
            CONTROL_ENDPOINTS.iter().copied().chain(["guard"]).collect()
        };
        for name in &named {
            if forbidden.contains(&name.as_str()) && *name != module {
                violations.push(format!("{} names crate::{name}", path.display()));
            }
        }
    }
    assert_eq!(
        endpoints_seen.len(),
        CONTROL_ENDPOINTS.len(),
        "an endpoint of the control crate moved: update this test"
    );
    assert!(
        violations.is_empty(),
        "the control crate's halves run into each other:\n{}",
        violations.join("\n")
    );
}

/// The parts of `site/` that its part `name` names: a file's through
/// `super::` and `crate::site::`; a folder's (`site/diff/`) through its
/// `mod.rs`'s `super::`, and every file's `crate::site::` and
/// `super::super::` (a file of the folder names the folder's own parts
/// through `super::`).
fn site_parts_named(site: &Path, name: &str) -> BTreeSet<String> {
    if let Ok(text) = std::fs::read_to_string(site.join(format!("{name}.rs"))) {
        let code = code_of(&text);
        return names_after(&code, "super::")
            .into_iter()
            .chain(names_after(&code, "crate::"))
            .collect();
    }
    let mut named = BTreeSet::new();
    for entry in walkdir::WalkDir::new(site.join(name)) {
        let entry = entry.expect("src/site is readable");
        if entry.path().extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let code = code_of(&std::fs::read_to_string(entry.path()).expect("source is text"));
        named.extend(names_after(&code, "crate::"));
        named.extend(names_after(&code, "super::super::"));
        if entry.path().parent() == Some(&site.join(name)) && entry.file_name() == "mod.rs" {
            named.extend(
                names_after(&code, "super::")
                    .into_iter()
                    .filter(|n| n != "super"),
            );
        }
    }
    named
}

/// `site/` is split along its jobs with the shared types at the bottom:
/// its `mod.rs` is a front door that holds no code, every other file names
/// what it uses by the sibling that owns it (`super::types::Checked`, never
/// `super::Checked` through the front door), and the jobs import only
/// downwards: types, then check, then the API files, then render, then output.
#[test]
fn nothing_in_site_imports_up() {
    let site = crate_root().join("crates/site/src");
    let front = std::fs::read_to_string(site.join("lib.rs")).expect("the builder's lib.rs");
    let front = code_of(&front);
    let code_in_front: Vec<&str> = front
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .filter(|l| {
            !(l.starts_with("pub mod ")
                || l.starts_with("#!")
                || l.starts_with("use ")
                || l.starts_with("mod ")
                || l.starts_with("pub use ")
                || l.starts_with("pub(crate) use ")
                // The lines of a re-export's group.
                || l.ends_with(',')
                || l.starts_with('}')
                || l.chars().all(|c| c.is_alphanumeric() || "_, ".contains(c)))
        })
        .collect();
    assert!(
        code_in_front.is_empty(),
        "site/mod.rs is the front door and holds no code, found: {code_in_front:?}"
    );

    let siblings: BTreeSet<String> = std::fs::read_dir(&site)
        .expect("src/site")
        .filter_map(|e| {
            let path = e.ok()?.path();
            let stem = path.file_stem()?.to_str()?.to_owned();
            (path.extension().is_some_and(|x| x == "rs") || path.is_dir()).then_some(stem)
        })
        .filter(|stem| stem != "lib")
        .collect();
    // The checker's modules, which the front door brings in under their names.
    let checker = names_after(&front, "activity_site_check::");
    // Each job and the jobs above it, which it must not import.
    let order = ["types", "check", "api", "render", "output"];
    let mut violations = Vec::new();
    for sibling in &siblings {
        let mut named = site_parts_named(&site, sibling);
        named.retain(|n| !checker.contains(n));
        for name in &named {
            if !siblings.contains(name) {
                violations.push(format!(
                    "site/{sibling}.rs imports `{name}` through the front door; name the part that owns it"
                ));
            }
        }
        if sibling == "types" && !named.is_empty() {
            violations.push(format!(
                "site/types.rs is the bottom of the folder but imports {named:?}"
            ));
        }
        if let Some(rank) = order.iter().position(|job| job == sibling) {
            for above in &order[rank + 1..] {
                if named.contains(*above) {
                    violations.push(format!(
                        "site/{sibling}.rs imports site/{above}.rs, above it"
                    ));
                }
            }
        }
    }
    assert!(violations.is_empty(), "{violations:#?}");
    // The check sees a violation when there is one.
    assert!(names_after("use super::Checked;", "super::").contains("Checked"));
}

/// The files (and folders) of each folder of `src/` but its `mod.rs`, each
/// with the siblings its code names through `super::` or through the
/// folder's full path (`crate::validate::rules::`); and the same of the
/// control crate's folders, its top (`lib.rs`'s siblings, named through
/// `crate::` and `super::`) included.
fn sibling_imports() -> Vec<(String, BTreeMap<String, BTreeSet<String>>)> {
    let src = crate_root().join("src");
    let mut folders = Vec::new();
    for entry in walkdir::WalkDir::new(&src).min_depth(1) {
        let entry = entry.expect("src is readable");
        if entry.file_type().is_dir() {
            let rel = part_of(entry.path(), &src);
            let files = files_naming_siblings(
                entry.path(),
                &format!("crate::{}::", rel.replace('/', "::")),
            );
            folders.push((format!("src/{rel}"), files));
        }
    }
    let control = control_src();
    for entry in walkdir::WalkDir::new(&control) {
        let entry = entry.expect("the control crate is readable");
        if entry.file_type().is_dir() && !entry.path().ends_with("bin") {
            let rel = part_of(entry.path(), &control);
            let prefix = match rel.as_str() {
                "" => "crate::".to_string(),
                rel => format!("crate::{}::", rel.replace('/', "::")),
            };
            let files = files_naming_siblings(entry.path(), &prefix);
            folders.push((format!("crates/control/src/{rel}"), files));
        }
    }
    folders
}

/// The files (and folders) of `folder` but its `mod.rs` (`lib.rs`), each
/// with the siblings its code names through `super::` or `prefix`.
fn files_naming_siblings(folder: &Path, prefix: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = BTreeMap::new();
    for sibling in std::fs::read_dir(folder).expect("a folder of src") {
        let path = sibling.expect("a folder of src").path();
        let (name, file) = if path.is_dir() {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, path.join("mod.rs"))
        } else if path.extension().is_some_and(|e| e == "rs") {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            (name, path.clone())
        } else {
            continue;
        };
        if name == "mod" || name == "lib" {
            continue;
        }
        let code = std::fs::read_to_string(&file)
            .map(|text| code_of(&text))
            .unwrap_or_default();
        let named: BTreeSet<String> = names_after(&code, "super::")
            .into_iter()
            .chain(names_after(&code, prefix))
            .collect();
        files.insert(name, named);
    }
    let siblings: BTreeSet<String> = files.keys().cloned().collect();
    for (name, named) in &mut files {
        named.retain(|n| n != name && siblings.contains(n));
    }
    files
}

/// The import circles among `files`: each strongly connected set of two
/// or more files, sorted.
fn circles(files: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    // Reachability by search from each file: the folders are small.
    let reach = |from: &String| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.clone()];
        while let Some(file) = stack.pop() {
            for next in files.get(&file).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    stack.push(next.clone());
                }
            }
        }
        seen
    };
    let reachable: BTreeMap<&String, BTreeSet<String>> =
        files.keys().map(|f| (f, reach(f))).collect();
    let mut found: BTreeSet<Vec<String>> = BTreeSet::new();
    for (file, reached) in &reachable {
        let circle: Vec<String> = reached
            .iter()
            .filter(|other| reachable[other].contains(*file))
            .cloned()
            .collect();
        if circle.len() > 1 {
            found.insert(circle);
        }
    }
    found.into_iter().collect()
}

/// Issue 47: no two files of a folder import each other, directly or
/// round a longer circle (`operator.rs`, `screenshot.rs`,
/// `rules/document.rs`, `rules/text.rs` and `site/types.rs` with the cache,
/// the compression and the manifest were such circles).
#[test]
fn no_files_of_a_folder_import_each_other_in_a_circle() {
    let mut found = Vec::new();
    for (folder, files) in sibling_imports() {
        for circle in circles(&files) {
            found.push(format!("{folder}: {}", circle.join(" -> ")));
        }
    }
    assert!(
        found.is_empty(),
        "import circles between files:\n{}",
        found.join("\n")
    );
    // The search sees a circle when there is one, and none in a line.
    let files = |edges: &[(&str, &str)]| {
        let mut map: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (from, to) in edges {
            map.entry(from.to_string())
                .or_default()
                .insert(to.to_string());
            map.entry(to.to_string()).or_default();
        }
        map
    };
    assert_eq!(
        circles(&files(&[("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")])),
        vec![vec!["a".to_string(), "b".into(), "c".into()]]
    );
    assert!(circles(&files(&[("a", "b"), ("b", "c"), ("a", "c")])).is_empty());
}

/// Issue 64: the item of `src/lib.rs`'s invariants that names the leaves
/// (`The leaves: A, B and C import nothing of the crate; D, E and F import
/// only i18n, ...`) is true of the code: each module it names imports
/// nothing of the crate, or only `i18n`. A module that is a crate of its
/// own (`crates/json`) is held by its manifest: of the workspace it may
/// depend on `stdx` and, where the item allows it, `activity-site-i18n`.
#[test]
fn the_leaves_lib_rs_names_import_what_it_says() {
    let lib = std::fs::read_to_string(crate_root().join("src/lib.rs")).expect("lib.rs");
    let item: String = lib
        .lines()
        .skip_while(|l| !l.starts_with("//! - The leaves:"))
        .take_while(|l| !l.starts_with("//! - ") || l.starts_with("//! - The leaves:"))
        .map(|l| l.trim_start_matches("//!").trim())
        .collect::<Vec<_>>()
        .join(" ");
    let names = |part: &str| -> Vec<String> {
        part.split("[`")
            .skip(1)
            .filter_map(|s| s.split('`').next())
            .map(str::to_owned)
            .collect()
    };
    let (nothing, rest) = item
        .split_once("import nothing of the crate;")
        .expect("the item says which leaves import nothing");
    let (only_i18n, _) = rest
        .split_once("import only [`i18n`]")
        .expect("the item says which leaves import only i18n");
    let (nothing, only_i18n) = (names(nothing), names(only_i18n));
    assert!(nothing.len() >= 3 && only_i18n.len() >= 2, "{item}");
    for (module, may) in nothing
        .iter()
        .map(|m| (m, &[][..]))
        .chain(only_i18n.iter().map(|m| (m, &["i18n"][..])))
    {
        let crate_src = crate_root().join(format!("crates/{module}/src"));
        let src = ["src", "crates/check/src"]
            .map(|s| crate_root().join(s))
            .into_iter()
            .find(|s| s.join(format!("{module}.rs")).exists() || s.join(module).is_dir())
            .unwrap_or_else(|| crate_src.clone());
        if src == crate_src {
            // A crate of its own names the crates it uses in its manifest,
            // where the compiler takes them from: only `stdx` and `may`.
            let manifest = crate_src.with_file_name("Cargo.toml");
            for dependency in workspace_dependencies(&manifest) {
                assert!(
                    may.iter()
                        .any(|m| dependency == format!("activity-site-{m}")),
                    "lib.rs says `{module}` imports {may:?} of the crate, but {} depends on {dependency}",
                    manifest.display()
                );
            }
        }
        let file = src.join(format!("{module}.rs"));
        let dir = if src.join(module).is_dir() {
            src.join(module)
        } else {
            src.clone()
        };
        let paths: Vec<std::path::PathBuf> = if file.exists() {
            vec![file]
        } else {
            walkdir::WalkDir::new(&dir)
                .into_iter()
                .filter_map(Result::ok)
                .map(|e| e.into_path())
                .filter(|p| p.extension().is_some_and(|e| e == "rs"))
                .collect()
        };
        assert!(
            !paths.is_empty(),
            "lib.rs names `{module}`, which has no source"
        );
        for path in paths {
            let text = std::fs::read_to_string(&path).expect("source");
            for import in imports(&code_of(&text)) {
                assert!(
                    import == *module || may.contains(&import.as_str()),
                    "lib.rs says `{module}` imports {may:?} of the crate, but {} imports crate::{import}",
                    path.display()
                );
            }
        }
    }
}

/// The crates of the workspace (`activity-site-*`, not `stdx`, the leaves
/// every crate may use) that the `[dependencies]` of `manifest` name.
fn workspace_dependencies(manifest: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(manifest).expect("a crate has its manifest");
    text.lines()
        .skip_while(|line| line.trim() != "[dependencies]")
        .skip(1)
        .take_while(|line| !line.trim_start().starts_with('['))
        .filter_map(|line| {
            let name = line.split(['.', '=', ' ']).next()?.trim();
            name.starts_with("activity-site-").then(|| name.to_owned())
        })
        .collect()
}
