//! What no crate boundary can say (the compiler keeps the arrows between
//! crates, each crate's `lib.rs` says them): the arrows inside a crate, the
//! one owner of each kind of path, and no circles among a folder's files.

use std::collections::{BTreeMap, BTreeSet};

use crate::util::{crate_root, source_files};

type Names = BTreeSet<String>;
/// What a module may name of its crate (`i18n`, the messages, always).
enum May {
    Only(&'static [&'static str]),
    Not(&'static [&'static str]),
}
use May::{Not, Only};

/// A crate's source folder, its modules held to a rule (`*`: those no other
/// row names), what they may name. A crate with no row has its boundaries.
#[rustfmt::skip]
const RULES: &[(&str, &[&str], May)] = &[
    ("crates/check/src", &["tree", "markdown", "model"], Only(&[])),
    ("crates/check/src", &["diagnostics"], Only(&["chars"])),
    ("crates/check/src", &["layout", "clock"], Only(&["model"])),
    ("crates/check/src", &["kind"], Only(&["diagnostics", "layout", "tree"])),
    ("crates/check/src", &["source"], Only(&["model", "diagnostics", "json", "tree", "kind"])),
    ("crates/check/src", &["load"], Only(&["relpath", "model", "diagnostics", "source", "tree", "kind"])),
    ("crates/check/src", &["validate"], Not(&["load"])),
    ("crates/import/src", &["lib"], Only(&["activity_site_check", "model", "json", "layout", "tree", "kind"])),
    ("src", &["fetch"], Only(&[])),
    ("src", &["root"], Only(&["relpath", "tree", "clock"])),
    ("src", &["publish"], Only(&["relpath", "site", "layout", "terminal"])),
    ("src", &["status"], Only(&["site", "validate", "model", "kind", "tree", "chars"])),
    ("src", &["version"], Only(&["site", "validate", "source", "diagnostics", "model", "tree", "atomic"])),
    ("src", &["import"], Only(&["activity_site_import", "relpath", "model", "json", "layout", "fetch", "atomic", "load", "source", "tree", "kind"])),
    ("src", &["bases"], Only(&["review", "relpath", "clock", "diagnostics", "fetch", "layout", "load", "model", "site", "tree", "validate"])),
    ("src", &["cli"], Only(&["diagnostics", "model", "publish", "import", "clock", "layout", "validate"])),
    // Only the server and the commands join the data half and the control half.
    ("src", &["server"], Only(&["activity_site_control", "relpath", "site", "layout", "source", "load", "validate", "model", "diagnostics", "terminal", "tree"])),
    ("src", &["data_mcp"], Not(&["activity_site_control", "server", "cmd", "cli", "publish"])),
    ("src", &["cmd"], Not(&[])),
    // The control core knows no HTTP; the simulator sees only the protocol.
    ("crates/control/src", &["guard"], Only(&[])),
    ("crates/control/src", &["api"], Not(&["mcp"])),
    ("crates/control/src", &["mcp"], Not(&["api"])),
    ("crates/control/src", &["simulator"], Only(&["protocol", "runner", "operator", "logs", "error", "state", "configs"])),
    ("crates/control/src", &["*"], Not(&["api", "mcp", "guard"])),
];

/// Each source file's path and lines of code (a comment blank, no tests).
fn sources() -> Vec<(String, Vec<String>)> {
    let mut found = Vec::new();
    for path in source_files() {
        let rel = path.strip_prefix(crate_root()).unwrap().to_string_lossy();
        let text = std::fs::read_to_string(&path).expect("source is text");
        let comment = |l: &&str| l.trim_start().starts_with("//");
        let code = text.lines().map(|l| if comment(&l) { "" } else { l });
        let lines = code.take_while(|l| !l.trim_start().starts_with("#[cfg(test)]"));
        found.push((rel.replace('\\', "/"), lines.map(str::to_owned).collect()));
    }
    found
}

/// Fails with `what` and the lines of `found` unless it is empty.
#[track_caller]
fn none(found: &[String], what: &str) {
    assert!(found.is_empty(), "{what}:\n{}", found.join("\n"));
}

/// The name (letters, digits, `_`) `text` starts with.
fn word(text: &str) -> String {
    let name = |c: &char| c.is_alphanumeric() || *c == '_';
    text.trim().chars().take_while(name).collect()
}

/// The names after `prefix` in `code`: `prefix::a`, `prefix::{a, b::c}`.
fn names_after(code: &str, prefix: &str) -> Names {
    let mut found = BTreeSet::new();
    for (i, _) in code.match_indices(prefix) {
        match code[i + prefix.len()..].strip_prefix('{') {
            Some(group) => found.extend(group[..group.find('}').unwrap()].split(',').map(word)),
            None => _ = found.insert(word(&code[i + prefix.len()..])),
        }
    }
    found.retain(|n| !n.is_empty());
    found
}

/// What code names: `crate::x`, `super::x` at a crate's top, workspace crates.
fn named(code: &str, top: bool) -> Names {
    let mut found = names_after(code, "crate::");
    if top {
        found.extend(names_after(code, "super::"));
    }
    found.extend(names_after(code, "activity_site_check::"));
    let crates = code.match_indices("activity_site_");
    found.extend(crates.map(|(i, _)| word(&code[i..])));
    found
}

/// What `named` holds that `may` forbids to `module`.
fn breaks(module: &str, may: &May, named: &Names) -> Vec<String> {
    let allowed = |n: &str| match may {
        Only(names) => names.contains(&n),
        Not(names) => !names.contains(&n),
    };
    let broken = named.iter().filter(|n| *n != module && *n != "i18n");
    broken.filter(|n| !allowed(n)).cloned().collect()
}

#[test]
fn modules_name_only_what_their_crate_lets_them() {
    let mut broken = Vec::new();
    for (rel, lines) in sources() {
        let in_folder = |f: &'static str| Some((f, rel.strip_prefix(&format!("{f}/"))?));
        let Some((folder, inner)) = RULES.iter().find_map(|r| in_folder(r.0)) else {
            continue;
        };
        let module = inner.split('/').next().unwrap().trim_end_matches(".rs");
        if ["lib", "main", "bin"].contains(&module) && folder != "crates/import/src" {
            continue; // A crate's front door and its programs.
        }
        let of_folder = || RULES.iter().filter(|r| r.0 == folder);
        let rule = of_folder().find(|r| r.1.contains(&module));
        let rule = rule.or_else(|| of_folder().find(|r| r.1 == ["*"]));
        let (_, _, may) = rule.unwrap_or_else(|| panic!("{rel} has no rule: add one"));
        let found = breaks(module, may, &named(&lines.join("\n"), !inner.contains('/')));
        broken.extend(found.into_iter().map(|name| format!("{rel} names {name}")));
    }
    none(&broken, "arrows a crate forbids");
    // The scanner sees grouped, plain and workspace names, and a rule refuses them.
    let code = "use crate::{model::Game, load};\nsuper::guard::run();\nactivity_site_control::X";
    let found = named(code, true);
    let expected = ["activity_site_control", "guard", "load", "model"];
    assert_eq!(found, expected.map(String::from).into());
    assert_eq!(breaks("validate", &Not(&["load"]), &found), ["load"]);
    let only = breaks("kind", &Only(&["model", "guard"]), &found);
    assert_eq!(only, ["activity_site_control", "load"]);
}

/// How code spells a path of the sources.
#[rustfmt::skip]
const SOURCE_PATHS: [&str; 7] = ["\"games.json\"", "\"data/", "join(\"data\")", "\"data\"]", "[\"data\"",
    "\"schema/", "\".activity-site\""];

/// Files whose prose for people names the site's folder.
const PROSE: [&str; 3] = [
    "src/cli.rs",
    "src/cmd/import.rs",
    "crates/site/src/pages.rs",
];

/// One owner spells each kind of path: the site's `layout`, the sources' `tree`.
#[test]
fn each_kind_of_path_is_spelled_by_its_owner_alone() {
    let (layout, tree) = ("crates/check/src/layout.rs", "crates/check/src/tree.rs");
    // `api/v1` not inside a longer name (`/openapi/v1.json`); the sources' names as paths.
    let in_name = |line: &str, i: usize| line[..i].ends_with(char::is_alphanumeric);
    let site = |line: &str| line.match_indices("api/v1").any(|(i, _)| !in_name(line, i));
    let source = |line: &str| SOURCE_PATHS.iter().any(|s| line.contains(s));
    let mut spelled = Vec::new();
    for (rel, lines) in sources() {
        for (number, line) in lines.iter().enumerate() {
            let code = !line.contains("format!") && !line.contains(".join(");
            let said = PROSE.contains(&rel.as_str()) && code;
            let owner = match line {
                line if site(line) && !said => layout,
                line if source(line) => tree,
                _ => continue,
            };
            if rel != owner && !rel.starts_with("crates/control/") {
                let at = format!("{rel}:{}", number + 1);
                spelled.push(format!("{at}: {} (ask {owner})", line.trim()));
            }
        }
    }
    none(&spelled, "paths spelled outside their owner");
    assert!(site("\"api/v1/games.json\"") && !site("\"/openapi/v1\""));
    assert!(source("join(\"games.json\")") && !source("\"games-json\""));
}

/// Each folder's files, with the siblings each names (`super::x`, `crate::a::b::x`).
fn sibling_imports() -> BTreeMap<String, BTreeMap<String, Names>> {
    let mut folders: BTreeMap<String, BTreeMap<String, Names>> = BTreeMap::new();
    for (rel, lines) in sources() {
        let (crate_src, inner) = rel.split_once("src/").unwrap();
        let (folder, file) = inner.rsplit_once('/').unwrap_or(("", inner));
        let (folder, name) = match (file, folder.rsplit_once('/')) {
            ("mod.rs", Some((parent, name))) => (parent, name),
            ("mod.rs", None) => ("", folder),
            (file, _) => (folder, file.trim_end_matches(".rs")),
        };
        let top = crate_src.is_empty() && folder.is_empty();
        if top || name == "lib" || folder.starts_with("bin") {
            continue; // A program's `main` is alone.
        }
        let path = format!("crate::{folder}::").replace('/', "::");
        let prefix = if folder.is_empty() { "crate::" } else { &path };
        let key = format!("{crate_src}src/{folder}");
        let files = folders.entry(key).or_default();
        let named = files.entry(name.to_owned()).or_default();
        let code = lines.join("\n");
        named.extend(names_after(&code, "super::"));
        named.extend(names_after(&code, prefix));
    }
    for files in folders.values_mut() {
        let siblings: Names = files.keys().cloned().collect();
        for (name, named) in files.iter_mut() {
            named.retain(|n| n != name && siblings.contains(n));
        }
    }
    folders
}

/// The files of a folder that reach themselves through what they name.
fn in_circles(files: &BTreeMap<String, Names>) -> Vec<String> {
    let mut found = Vec::new();
    for start in files.keys() {
        let (mut seen, mut stack) = (Names::new(), vec![start]);
        while let Some(file) = stack.pop() {
            stack.extend(files[file].iter().filter(|n| seen.insert((*n).clone())));
        }
        if seen.contains(start) {
            found.push(start.clone());
        }
    }
    found
}

/// No files of a folder import each other, directly or round a circle.
#[test]
fn no_files_of_a_folder_import_each_other_in_a_circle() {
    let folders = sibling_imports();
    assert!(folders.contains_key("crates/check/src/validate/rules"));
    let mut found = Vec::new();
    for (folder, files) in folders {
        let circled = in_circles(&files);
        found.extend(circled.iter().map(|file| format!("{folder}/{file}")));
    }
    none(&found, "files that import themselves round a circle");
    // The search sees a circle when there is one, and none in a line.
    let graph = |edges: &[(&str, &[&str])]| -> BTreeMap<String, Names> {
        let names = |to: &[&str]| to.iter().map(|t| t.to_string()).collect();
        let node = |(from, to): &(&str, &[&str])| (from.to_string(), names(to));
        edges.iter().map(node).collect()
    };
    let circle = graph(&[("a", &["b"]), ("b", &["c"]), ("c", &["a", "d"]), ("d", &[])]);
    assert_eq!(in_circles(&circle), ["a", "b", "c"]);
    assert!(in_circles(&graph(&[("a", &["b", "c"]), ("b", &["c"]), ("c", &[])])).is_empty());
}
