//! The languages of the tool (issue 39): the two `.ftl` files hold the same
//! messages with the same arguments, the code names only messages they hold
//! with exactly their arguments, the Chinese follows the house conventions,
//! and `check` speaks each language through the binary, chosen by `--lang`
//! or by the environment.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use activity_site::i18n::{Lang, all_ftl};
use fluent_syntax::ast;

use crate::util::{FIXTURE_NOW, crate_root, fixture_root, stderr};

/// Message identifier to the variables its value and variants name.
fn messages(ftl: &str, name: &str) -> BTreeMap<String, BTreeSet<String>> {
    let resource = fluent_syntax::parser::parse(ftl)
        .unwrap_or_else(|(_, errors)| panic!("{name} does not parse: {errors:?}"));
    let mut out = BTreeMap::new();
    for entry in resource.body {
        match entry {
            ast::Entry::Message(message) => {
                let mut vars = BTreeSet::new();
                if let Some(pattern) = &message.value {
                    pattern_vars(pattern, &mut vars);
                }
                assert!(
                    message.attributes.is_empty(),
                    "{name}: `{}` has attributes, which the code never reads",
                    message.id.name
                );
                let id = message.id.name.to_string();
                assert!(
                    out.insert(id.clone(), vars).is_none(),
                    "{name}: `{id}` is defined twice"
                );
            }
            ast::Entry::Term(term) => panic!("{name}: term `-{}` is not used", term.id.name),
            ast::Entry::Junk { content } => panic!("{name}: cannot parse {content:?}"),
            _ => {}
        }
    }
    out
}

fn pattern_vars(pattern: &ast::Pattern<&str>, vars: &mut BTreeSet<String>) {
    for element in &pattern.elements {
        if let ast::PatternElement::Placeable { expression } = element {
            expression_vars(expression, vars);
        }
    }
}

fn expression_vars(expression: &ast::Expression<&str>, vars: &mut BTreeSet<String>) {
    match expression {
        ast::Expression::Select { selector, variants } => {
            inline_vars(selector, vars);
            for variant in variants {
                pattern_vars(&variant.value, vars);
            }
        }
        ast::Expression::Inline(inline) => inline_vars(inline, vars),
    }
}

fn inline_vars(inline: &ast::InlineExpression<&str>, vars: &mut BTreeSet<String>) {
    match inline {
        ast::InlineExpression::VariableReference { id } => {
            vars.insert(id.name.to_string());
        }
        ast::InlineExpression::Placeable { expression } => expression_vars(expression, vars),
        ast::InlineExpression::MessageReference { id, .. } => {
            panic!(
                "message reference `{}`: pass the message as an argument",
                id.name
            )
        }
        ast::InlineExpression::FunctionReference { arguments, .. } => {
            for arg in &arguments.positional {
                inline_vars(arg, vars);
            }
            for arg in &arguments.named {
                inline_vars(&arg.value, vars);
            }
        }
        _ => {}
    }
}

#[test]
fn both_languages_have_every_message_with_the_same_arguments() {
    let en = messages(all_ftl(Lang::EnUs), "en-US.ftl");
    let zh = messages(all_ftl(Lang::ZhCn), "zh-CN.ftl");
    let mut problems = Vec::new();
    for (id, vars) in &en {
        match zh.get(id) {
            None => problems.push(format!("`{id}` is missing from zh-CN.ftl")),
            Some(other) if other != vars => problems.push(format!(
                "`{id}` takes {vars:?} in en-US.ftl but {other:?} in zh-CN.ftl"
            )),
            Some(_) => {}
        }
    }
    for id in zh.keys().filter(|id| !en.contains_key(*id)) {
        problems.push(format!("`{id}` is missing from en-US.ftl"));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Each `msg!("id", name = value, ...)` in the source: the identifier and
/// the argument names, with the file it is in.
fn msg_calls() -> Vec<(String, String, BTreeSet<String>)> {
    let mut calls = Vec::new();
    for path in crate::util::source_files() {
        let text = std::fs::read_to_string(&path).expect("source is text");
        let code: String = text
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        let file = path.display().to_string();
        for (at, _) in code.match_indices("msg!(") {
            let parts = top_level_parts(&code[at + "msg!(".len()..]);
            let Some(id) = parts
                .first()
                .and_then(|p| p.trim().strip_prefix('"'))
                .and_then(|p| p.strip_suffix('"'))
            else {
                continue; // the macro's own definition
            };
            let names = parts[1..]
                .iter()
                .filter(|p| !p.trim().is_empty())
                .map(|p| {
                    let (name, _) = p.split_once('=').expect("`name = value`");
                    name.trim().to_string()
                })
                .collect();
            calls.push((file.clone(), id.to_string(), names));
        }
    }
    calls
}

/// The comma-separated parts of a call's arguments up to its closing parenthesis.
fn top_level_parts(rest: &str) -> Vec<String> {
    let mut parts = vec![String::new()];
    let mut depth = 0usize;
    let mut chars = rest.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                let last = parts.last_mut().expect("a part");
                last.push(c);
                while let Some(s) = chars.next() {
                    last.push(s);
                    if s == '\\' {
                        if let Some(e) = chars.next() {
                            last.push(e);
                        }
                    } else if s == '"' {
                        break;
                    }
                }
                continue;
            }
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth == 0 => break,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(String::new());
                continue;
            }
            _ => {}
        }
        parts.last_mut().expect("a part").push(c);
    }
    parts
}

#[test]
fn the_code_names_only_messages_that_exist_with_exactly_their_arguments() {
    let en = messages(all_ftl(Lang::EnUs), "en-US.ftl");
    let calls = msg_calls();
    assert!(calls.len() > 100, "found only {} msg! calls", calls.len());
    let mut problems = Vec::new();
    for (file, id, names) in &calls {
        match en.get(id) {
            None => problems.push(format!("{file}: no message `{id}`")),
            Some(vars) if vars != names => problems.push(format!(
                "{file}: `{id}` is given {names:?} but its text uses {vars:?}"
            )),
            Some(_) => {}
        }
    }
    // No message is dead: each is named in the code (by `msg!`, or as a
    // string where a table or a list separator names it).
    let sources: String = crate::util::source_files()
        .iter()
        .map(|path| std::fs::read_to_string(path).expect("source is text"))
        .collect();
    // The reference page names a schema's title and a field's meaning by
    // the schema and the field; `pages::every_published_field_has_its_meaning_in_both_languages`
    // holds each such message to a published one.
    let derived = activity_site::site::reference::DERIVED_MESSAGES;
    for id in en
        .keys()
        .filter(|id| !derived.iter().any(|p| id.starts_with(p)))
    {
        if !sources.contains(&format!("\"{id}\"")) {
            problems.push(format!("`{id}` is never used"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The text of every message of zh-CN.ftl with each placeable as `{}`.
fn chinese_texts() -> Vec<(String, String)> {
    let resource = fluent_syntax::parser::parse(all_ftl(Lang::ZhCn)).expect("zh-CN.ftl parses");
    fn flatten(pattern: &ast::Pattern<&str>, out: &mut Vec<String>, prefix: String) {
        let mut text = prefix;
        for element in &pattern.elements {
            match element {
                ast::PatternElement::TextElement { value } => text.push_str(value),
                ast::PatternElement::Placeable { expression } => match expression {
                    ast::Expression::Select { variants, .. } => {
                        // Each variant read in place, with what follows it.
                        for variant in variants {
                            flatten(&variant.value, out, format!("{text}{{}}"));
                        }
                        text.push_str("{}");
                    }
                    ast::Expression::Inline(ast::InlineExpression::StringLiteral { value }) => {
                        text.push_str(value);
                    }
                    ast::Expression::Inline(_) => text.push_str("{}"),
                },
            }
        }
        out.push(text);
    }
    let mut texts = Vec::new();
    for entry in resource.body {
        if let ast::Entry::Message(message) = entry
            && let Some(pattern) = &message.value
        {
            let mut out = Vec::new();
            flatten(pattern, &mut out, String::new());
            texts.extend(out.into_iter().map(|t| (message.id.name.to_string(), t)));
        }
    }
    texts
}

fn is_cjk(c: char) -> bool {
    matches!(c, '\u{4E00}'..='\u{9FFF}' | '\u{3400}'..='\u{4DBF}')
}

/// The conventions zh-CN.ftl states at its top: full-width punctuation in
/// Chinese prose, no spaces between Chinese characters, one space between
/// Chinese and inline code, Latin words or digits.
#[test]
fn the_chinese_follows_the_conventions_of_chinese_technical_writing() {
    let mut problems = Vec::new();
    for (id, text) in chinese_texts() {
        // Inline code is a unit: `...` stands for itself, as code.
        let mut plain = String::new();
        let mut in_code = false;
        for c in text.chars() {
            if c == '`' {
                in_code = !in_code;
                if !in_code {
                    plain.push('C');
                }
                continue;
            }
            if !in_code {
                plain.push(c);
            }
        }
        let chars: Vec<char> = plain.chars().collect();
        for (i, pair) in chars.windows(2).enumerate() {
            let (a, b) = (pair[0], pair[1]);
            let ascii_punct = |c: char| matches!(c, ',' | ';' | '?' | '!' | '(' | ')' | ':');
            if (is_cjk(a) && ascii_punct(b)) || (ascii_punct(a) && is_cjk(b)) {
                problems.push(format!(
                    "{id}: half-width `{a}{b}` in Chinese prose: {text}"
                ));
            }
            let latin = |c: char| c.is_ascii_alphanumeric();
            if (is_cjk(a) && latin(b)) || (latin(a) && is_cjk(b)) {
                problems.push(format!(
                    "{id}: no space between Chinese and `{a}{b}`: {text}"
                ));
            }
            if a == ' ' && i > 0 && is_cjk(chars[i - 1]) && is_cjk(b) {
                problems.push(format!("{id}: a space inside Chinese text: {text}"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Runs `check` on the overlay `case` with the given flags and environment.
fn check_human(case: &Path, flags: &[&str], env: &[(&str, &str)]) -> (i32, String) {
    let root = fixture_root(Some(case));
    let now = std::fs::read_to_string(case.join("now"))
        .map_or(FIXTURE_NOW.to_string(), |s| s.trim().to_string());
    let mut args: Vec<&str> = flags.to_vec();
    args.extend(["check", "--now", &now]);
    run_in(root.path(), &args, env)
}

/// Runs the binary in `root` with `args` and only the language variables
/// of `env`: the exit code and standard error.
fn run_in(root: &Path, args: &[&str], env: &[(&str, &str)]) -> (i32, String) {
    let output = output_in(root, args, env);
    (output.status.code().unwrap_or(-1), stderr(&output))
}

/// The exit code, standard output and standard error of a run, as one text.
fn all_in(root: &Path, args: &[&str], env: &[(&str, &str)]) -> String {
    let output = output_in(root, args, env);
    // The command as the snapshot shows it: without the language flag.
    let shown: Vec<&str> = args
        .iter()
        .enumerate()
        .filter(|(i, a)| **a != "--lang" && (*i == 0 || args[i - 1] != "--lang"))
        .map(|(_, a)| *a)
        .collect();
    format!(
        "$ {} (exit {})\n{}{}",
        shown.join(" "),
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout),
        stderr(&output)
    )
}

/// Runs a command in each language: `--lang zh-CN` (a snapshot), `LANG`
/// (the same text), `--lang en-US` (a snapshot). `run` gets the language
/// flags and environment to pass.
fn both_languages(name: &str, run: impl Fn(&[&str], &[(&str, &str)]) -> String) {
    let chinese = run(&["--lang", "zh-CN"], &[]);
    assert_eq!(
        run(&[], &[("LANG", "zh_CN.UTF-8")]),
        chinese,
        "LANG=zh_CN.UTF-8 differs from --lang zh-CN"
    );
    insta::assert_snapshot!(format!("{name}_zh_cn"), chinese);
    insta::assert_snapshot!(format!("{name}_en_us"), run(&["--lang", "en-US"], &[]));
}

fn output_in(root: &Path, args: &[&str], env: &[(&str, &str)]) -> std::process::Output {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_activity-site"));
    command
        .args(args)
        .current_dir(root)
        .env("NO_COLOR", "1")
        .env_remove("RUST_LOG");
    for name in ["LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"] {
        command.env_remove(name);
    }
    for (name, value) in env {
        command.env(name, value);
    }
    command.output().expect("the binary runs")
}

fn invalid_cases() -> Vec<std::path::PathBuf> {
    let mut cases: Vec<_> = std::fs::read_dir(crate_root().join("tests/fixtures/invalid"))
        .expect("fixtures")
        .map(|e| e.expect("entry").path())
        .collect();
    cases.sort();
    cases
}

/// `check` on every invalid fixture (every rule code, every syntax-mistake
/// class) in one language: the snapshot a reviewer reads to judge the wording.
fn all_fixtures(flags: &[&str], env: &[(&str, &str)]) -> String {
    let mut out = String::new();
    for case in invalid_cases() {
        let name = case.file_name().expect("a name").to_string_lossy();
        let (code, text) = check_human(&case, flags, env);
        out.push_str(&format!("===== {name} (exit {code})\n{text}\n"));
    }
    out
}

#[test]
fn check_speaks_chinese_with_lang_and_with_the_environment() {
    let by_flag = all_fixtures(&["--lang", "zh-CN"], &[]);
    insta::assert_snapshot!("check_zh_cn", by_flag);
    // The environment, as POSIX tools read it, gives the same.
    let by_env = all_fixtures(&[], &[("LANG", "zh_CN.UTF-8")]);
    assert!(
        by_env == by_flag,
        "LANG=zh_CN.UTF-8 differs from --lang zh-CN"
    );
}

#[test]
fn check_speaks_english_by_default_and_when_asked() {
    let by_flag = all_fixtures(&["--lang", "en-US"], &[]);
    insta::assert_snapshot!("check_en_us", by_flag);
    let by_default = all_fixtures(&[], &[]);
    assert!(by_default == by_flag, "no language set differs from en-US");
    // The flag wins over the environment; LC_ALL wins over LANG.
    let case = crate_root().join("tests/fixtures/invalid/time-order");
    let english = check_human(&case, &["--lang", "en-US"], &[]);
    let chinese = check_human(&case, &["--lang", "zh-CN"], &[]);
    assert_ne!(english, chinese);
    assert_eq!(
        check_human(&case, &["--lang", "en-US"], &[("LANG", "zh_CN.UTF-8")]),
        english
    );
    assert_eq!(
        check_human(&case, &[], &[("LC_ALL", "C"), ("LANG", "zh_CN.UTF-8")]),
        english
    );
    assert_eq!(
        check_human(
            &case,
            &[],
            &[("LC_MESSAGES", "zh_CN.UTF-8"), ("LANG", "en_US.UTF-8")]
        ),
        chinese
    );
}

/// The base fixture with every kind of file `data/_files/` cannot publish:
/// a link out of the folder, a link to a folder and a link to nothing.
fn kept_file_root() -> tempfile::TempDir {
    let root = fixture_root(None);
    let files = root.path().join("data/_files");
    std::fs::create_dir_all(files.join("folder")).expect("folder");
    std::fs::write(files.join("robots.txt"), "User-agent: *\n").expect("kept file");
    let link = |target: &Path, name: &str| {
        std::os::unix::fs::symlink(target, files.join(name)).expect("symlink");
    };
    // Outside: the registry of the root itself, a path the snapshot can name.
    link(&root.path().join("games.json"), "outside.json");
    link(&files.join("folder"), "folder-link");
    link(&files.join("nothing-here"), "dangling.txt");
    root
}

/// `check` on [`kept_file_root`] in both languages: each problem of a kept
/// file is its own sentence in each. Paths of the temporary copy are
/// replaced by `<root>`.
#[test]
fn kept_file_problems_speak_both_languages() {
    let root = kept_file_root();
    let canonical = std::fs::canonicalize(root.path()).expect("canonical root");
    let run = |flags: &[&str], env: &[(&str, &str)]| {
        let mut args = flags.to_vec();
        args.extend(["check", "--now", FIXTURE_NOW]);
        let (code, text) = run_in(root.path(), &args, env);
        let text = text.replace(&canonical.display().to_string(), "<root>");
        format!("(exit {code})\n{text}")
    };
    let chinese = run(&["--lang", "zh-CN"], &[]);
    assert_eq!(run(&[], &[("LANG", "zh_CN.UTF-8")]), chinese);
    insta::assert_snapshot!("kept_file_zh_cn", chinese);
    insta::assert_snapshot!("kept_file_en_us", run(&["--lang", "en-US"], &[]));
}

/// Every code of the enum appears in both language snapshots' fixtures.
#[test]
fn the_fixtures_cover_every_rule_code() {
    let listed: BTreeSet<String> = invalid_cases()
        .iter()
        .filter_map(|case| std::fs::read_to_string(case.join("expected")).ok())
        .flat_map(|text| {
            text.lines()
                .filter_map(|l| l.split(' ').next().map(str::to_string))
                .collect::<Vec<_>>()
        })
        .collect();
    for code in activity_site::diagnostics::Code::ALL {
        // `kept-file` needs symbolic links, which the fixture overlays do
        // not copy: [`kept_file_root`] makes them in a temporary copy.
        if *code == activity_site::diagnostics::Code::KeptFile {
            let root = kept_file_root();
            let (_, text) = run_in(root.path(), &["check", "--now", FIXTURE_NOW], &[]);
            assert!(text.contains("[kept-file]"), "{text}");
            continue;
        }
        assert!(
            listed.contains(code.as_str()),
            "no fixture reports `{code}`"
        );
    }
    assert_eq!(Lang::ALL.len(), 2);
}

/// The JSON and GitHub renderings carry the chosen language too; the codes,
/// keys and paths stay as they are.
#[test]
fn json_and_github_formats_render_in_the_chosen_language() {
    let case = crate_root().join("tests/fixtures/invalid/schema-unknown-key");
    let root = fixture_root(Some(&case));
    let run = |lang: &str, format: &str| {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_activity-site"))
            .args([
                "--lang",
                lang,
                "check",
                "--format",
                format,
                "--now",
                FIXTURE_NOW,
            ])
            .current_dir(root.path())
            .output()
            .expect("the binary runs");
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let json: serde_json::Value = serde_json::from_str(&run("zh-CN", "json")).expect("json");
    let d = &json["diagnostics"][0];
    assert_eq!(d["code"], "schema");
    let message = d["message"].as_str().expect("a message");
    assert!(message.starts_with("未知字段 `"), "{message}");
    let github = run("zh-CN", "github");
    assert!(github.contains("title=schema::未知字段 `"), "{github}");
    assert!(github.contains("%0A提示："), "{github}");
    let english = run("en-US", "github");
    assert!(
        english.contains("title=schema::unknown field `"),
        "{english}"
    );
    // SARIF: the rules' descriptions and the help line of each result.
    let sarif: serde_json::Value = serde_json::from_str(&run("zh-CN", "sarif")).expect("sarif");
    let driver = &sarif["runs"][0]["tool"]["driver"];
    let rule = driver["rules"]
        .as_array()
        .expect("rules")
        .iter()
        .find(|r| r["id"] == "duplicate-key")
        .expect("the duplicate-key rule");
    assert_eq!(
        rule["shortDescription"]["text"],
        "同一个对象中出现了两次相同的键。"
    );
    let text = sarif["runs"][0]["results"][0]["message"]["text"]
        .as_str()
        .expect("a message");
    assert!(text.contains("\n提示："), "{text}");
    let sarif: serde_json::Value = serde_json::from_str(&run("en-US", "sarif")).expect("sarif");
    let text = sarif["runs"][0]["results"][0]["message"]["text"]
        .as_str()
        .expect("a message");
    assert!(text.contains("\nhelp: "), "{text}");
    // rdjson, which reviewdog posts as review comments.
    let rdjson: serde_json::Value = serde_json::from_str(&run("zh-CN", "rdjson")).expect("rdjson");
    let text = rdjson["diagnostics"][0]["message"]
        .as_str()
        .expect("a message");
    assert!(text.contains("\n提示："), "{text}");
}

/// The rule codes a Markdown section lists as headings (`### \`code\``).
fn heading_codes(section: &str, marks: &str) -> Vec<String> {
    section
        .lines()
        .filter_map(|l| l.strip_prefix(marks))
        .filter_map(|l| l.strip_prefix('`'))
        .filter_map(|l| l.split('`').next())
        .map(str::to_string)
        .collect()
}

/// CONTRIBUTING.md's Chinese guide explains the same rules as the English
/// one, in the same order, and both list every code of the `Code` enum.
#[test]
fn the_chinese_guide_lists_the_same_rule_codes_as_the_english_one() {
    let text = std::fs::read_to_string(crate_root().join("CONTRIBUTING.md")).expect("guide");
    let (english, chinese) = text
        .split_once("## 中文贡献指南")
        .expect("CONTRIBUTING.md has a Chinese section");
    let english = heading_codes(english, "### ");
    let chinese = heading_codes(chinese, "#### ");
    let all: Vec<String> = activity_site::diagnostics::Code::ALL
        .iter()
        .map(|c| c.as_str().to_string())
        .collect();
    assert_eq!(english, all, "the English rule reference");
    assert_eq!(chinese, english, "the Chinese rule reference");

    // The README's common tasks have their Chinese twin, one item each.
    let readme = std::fs::read_to_string(crate_root().join("README.md")).expect("readme");
    let section = |title: &str| -> &str {
        let start = readme.find(title).unwrap_or_else(|| panic!("no {title}"));
        let rest = &readme[start + title.len()..];
        let end = rest.find("\n## ").unwrap_or(rest.len());
        &rest[..end]
    };
    let tasks = section("## Three common tasks")
        .lines()
        .filter(|l| l.starts_with("### ") && l.as_bytes().get(4).is_some_and(u8::is_ascii_digit))
        .count();
    assert_eq!(tasks, 3);
    let twins = section("## 中文说明")
        .lines()
        .filter(|l| l.starts_with("- **"))
        .count();
    assert_eq!(twins, tasks);
}

/// The data check of pull requests annotates them in Chinese.
#[test]
fn ci_annotates_pull_requests_in_chinese() {
    let ci = std::fs::read_to_string(crate_root().join(".github/workflows/ci.yml")).expect("ci");
    assert!(ci.contains("--lang zh-CN check --format github"), "{ci}");
}

/// `version new`: what it writes (dry run) and each kind of refusal.
#[test]
fn version_new_speaks_both_languages() {
    let work = crate::review::pair(None);
    let head = work.path().join("head");
    let now = crate::review::NOW;
    let new = |more: &[&'static str]| {
        let mut args = vec![
            "version",
            "new",
            "sr",
            "--name",
            "4.7",
            "--now",
            now,
            "--start",
            "2026-11-26T11:00:00",
        ];
        args.extend_from_slice(more);
        args
    };
    let commands = [
        new(&[
            "--version",
            "4.7",
            "--end",
            "2027-01-07T05:59:59",
            "--dry-run",
        ]),
        new(&["--version", "4.7", "--end", "2026-11-01T00:00:00"]),
        new(&["--version", "4.7", "--end", "2027-01-07 05:59"]),
        new(&["--version", "4.5", "--end", "2027-01-07T05:59:59"]),
        new(&[
            "--version",
            "4.7",
            "--end",
            "2027-01-07T05:59:59",
            "--name",
            "fr=x",
        ]),
    ];
    both_languages("version_new", |flags, env| {
        let mut out = String::new();
        for command in &commands {
            let mut args = flags.to_vec();
            args.extend(command.iter().copied());
            out.push_str(&all_in(&head, &args, env));
            out.push('\n');
        }
        out
    });
}

/// `diff` in text, Markdown and GitHub annotations on the review fixtures:
/// every status, renamed and moved activities, changed fields and breaking
/// changes, with the plurals of one file and one activity.
#[test]
fn diff_speaks_both_languages() {
    let cases = [
        "changed",
        "renamed-moved",
        "new",
        "ongoing-removed",
        "upcoming",
    ];
    let works: Vec<_> = cases
        .iter()
        .map(|case| crate::review::pair(Some(case)))
        .collect();
    let one_file = crate::review::fixtures().join("sites/anno-id");
    both_languages("diff", |flags, env| {
        let mut out = String::new();
        for (case, work) in cases.iter().zip(&works) {
            for format in ["text", "markdown", "github"] {
                let mut args = flags.to_vec();
                args.extend([
                    "diff",
                    "--against",
                    "../base-site",
                    "--now",
                    crate::review::NOW,
                    "--format",
                    format,
                ]);
                out.push_str(&format!("===== {case} {format}\n"));
                out.push_str(&all_in(&work.path().join("head"), &args, env));
            }
        }
        let head = one_file.join("head").to_string_lossy().into_owned();
        let base = one_file.join("base").to_string_lossy().into_owned();
        let mut args = flags.to_vec();
        args.extend([
            "diff",
            "--site",
            &head,
            "--against",
            &base,
            "--now",
            crate::review::NOW,
        ]);
        out.push_str("===== sites/anno-id text\n");
        let fixture = crate::review::fixtures().join("base");
        out.push_str(
            &all_in(&fixture, &args, env)
                .replace(&one_file.to_string_lossy().into_owned(), "<sites>"),
        );
        // The tool's own refusal: a base that is neither a folder nor a URL.
        let mut args = flags.to_vec();
        args.extend(["diff", "--against", "nowhere", "--now", crate::review::NOW]);
        out.push_str("===== no base\n");
        out.push_str(&all_in(&fixture, &args, env));
        out
    });
}

/// `import` from a folder with a broken file, a disagreeing twin, a file it
/// does not know, a game nobody described and activities out of order; then
/// the refusal to overwrite and a `--from` that is nothing.
#[test]
fn import_speaks_both_languages() {
    let base = crate_root().join("tests/fixtures/base/data/demo/zh-CN.json");
    let doc = std::fs::read_to_string(base).expect("base document");
    let unordered = r#"{
    "version": "2.1",
    "versionName": "测试",
    "startTime": "2026-10-01T10:00:00",
    "endTime": "2026-11-10T03:59:59",
    "cover": "",
    "activities": [
        {"name": "后来", "description": "", "startTime": "2026-10-20T10:00:00", "endTime": "2026-11-01T03:59:59"},
        {"name": "先来", "description": "x", "startTime": "2026-10-01T10:00:00", "endTime": "2026-10-21T03:59:59"}
    ]
}
"#;
    both_languages("import", |flags, env| {
        let dir = tempfile::tempdir().expect("temp dir");
        let flat = dir.path().join("flat");
        std::fs::create_dir(&flat).expect("flat");
        std::fs::write(flat.join("demo.json"), &doc).expect("write");
        std::fs::write(
            flat.join("demo-zh-CN.json"),
            doc.replacen("\"version\": \"", "\"version\": \"0", 1),
        )
        .expect("write");
        std::fs::write(flat.join("demo-en-US.json"), "{\"version\": ").expect("write");
        std::fs::write(flat.join("ak.json"), unordered).expect("write");
        std::fs::write(flat.join("notes.txt"), "notes\n").expect("write");
        let root = dir.path().join("root");
        let import = |more: &[&str]| {
            let mut args = flags.to_vec();
            args.extend(["import", "--root", "root", "--now", FIXTURE_NOW, "--from"]);
            args.extend(more);
            all_in(dir.path(), &args, env)
        };
        let mut out = import(&["flat"]);
        let edited = root.join("data/ak/zh-CN.json");
        std::fs::write(&edited, "{}\n").expect("edit");
        out.push_str(&import(&["flat"]));
        out.push_str(&import(&["nowhere"]));
        out.replace(&dir.path().display().to_string(), "<dir>")
    });
}

/// `publish` against the loopback S3 server: the plan of a dry run, the
/// publish itself, a foreign object, a stale site and a target that is no
/// `s3://` URL.
#[test]
fn publish_speaks_both_languages() {
    use crate::publish::{build, publish_to};
    use crate::util::s3::{BUCKET, S3Server};
    both_languages("publish", |flags, env| {
        let server = S3Server::start();
        let root = fixture_root(None);
        build(root.path());
        let target = format!("s3://{BUCKET}/activity");
        let mut out = String::new();
        let mut step = |title: &str, target: &str, more: &[&str]| {
            let mut args = flags.to_vec();
            args.extend_from_slice(more);
            let output = publish_to(&server, target, root.path(), &args, env);
            out.push_str(&format!(
                "===== {title} (exit {})\n{}{}",
                output.status.code().unwrap_or(-1),
                String::from_utf8_lossy(&output.stdout),
                stderr(&output)
            ));
        };
        server.put_foreign("activity/robots.txt", b"someone else's\n");
        server.put_foreign("activity/index.html", b"someone else's page\n");
        step("dry run", &target, &["--dry-run"]);
        step("foreign object", &target, &[]);
        step("adopt", &target, &["--adopt"]);
        step("not s3", "notaurl", &[]);
        let data = root.path().join("data/demo/zh-CN.json");
        let text = std::fs::read_to_string(&data).expect("data");
        std::fs::write(
            &data,
            text.replacen("\"version\": \"", "\"version\": \"9", 1),
        )
        .expect("edit");
        step("stale", &target, &[]);
        out.replace(&root.path().display().to_string(), "<root>")
    });
}

/// `serve`: its refusals before it starts, and a site with errors under
/// `--no-watch`. Log lines carry a timestamp: the snapshot keeps the rest.
#[test]
fn serve_speaks_both_languages() {
    let case = crate_root().join("tests/fixtures/invalid/time-order");
    let root = fixture_root(Some(&case));
    both_languages("serve", |flags, env| {
        let mut out = String::new();
        for more in [
            &["--access-token", " secret"][..],
            &["--allow-origin", "nope"][..],
            &["--no-watch"][..],
        ] {
            let mut args = flags.to_vec();
            args.extend(["serve", "--addr", "127.0.0.1:0", "--now", FIXTURE_NOW]);
            args.extend_from_slice(more);
            let output = output_in(root.path(), &args, env);
            let text = stderr(&output);
            let logged: Vec<&str> = text
                .lines()
                .filter_map(|l| l.split_once(" activity_site").map(|(_, rest)| rest))
                .collect();
            let plain: Vec<&str> = text
                .lines()
                .filter(|l| !l.contains(" activity_site"))
                .collect();
            out.push_str(&format!(
                "===== {} (exit {})\n{}\n{}\n",
                more.join(" "),
                output.status.code().unwrap_or(-1),
                plain.join("\n"),
                logged.join("\n")
            ));
        }
        out
    });
}

/// `status` with an announcements board: the board's table speaks the
/// language too (its times depend on the file, so no snapshot).
#[test]
fn status_boards_speak_both_languages() {
    let root = fixture_root(Some(
        &crate_root().join("tests/fixtures/announcements/real"),
    ));
    let run = |flags: &[&str], env: &[(&str, &str)]| {
        let mut args = flags.to_vec();
        args.extend(["status", "--now", FIXTURE_NOW]);
        String::from_utf8_lossy(&output_in(root.path(), &args, env).stdout).into_owned()
    };
    let chinese = run(&["--lang", "zh-CN"], &[]);
    assert_eq!(run(&[], &[("LANG", "zh_CN.UTF-8")]), chinese);
    for word in ["公告栏", "条数", "更新时间", "正常"] {
        assert!(chinese.contains(word), "{word}: {chinese}");
    }
    let english = run(&["--lang", "en-US"], &[]);
    for word in ["ANNOUNCEMENTS", "COUNT", "CHANGED", "ok"] {
        assert!(english.contains(word), "{word}: {english}");
    }
}

/// The English sentences of `text`: runs of 3 or more English words in a
/// line, outside what is no prose (code spans, URLs, paths, flags, codes,
/// ALL-CAPS placeholders). Empty for output that speaks Chinese only
/// (issue 57, point 6).
pub(crate) fn english_sentences(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for line in text.lines() {
        // Code spans are names, not prose.
        let prose: String = line
            .split('`')
            .enumerate()
            .filter(|(i, _)| i % 2 == 0)
            .map(|(_, part)| part)
            .collect::<Vec<_>>()
            .join(" ");
        let mut run: Vec<&str> = Vec::new();
        let mut flush = |run: &mut Vec<&str>| {
            if run.len() >= 3 {
                found.push(format!("{}  ← {line}", run.join(" ")));
            }
            run.clear();
        };
        for token in prose.split(|c: char| c.is_whitespace() || !c.is_ascii()) {
            let word = token.trim_matches(|c: char| ",.;:!?()[]\"'".contains(c));
            let is_word = !word.is_empty()
                && !token.contains("://")
                && !token.contains('/')
                && word.chars().all(|c| c.is_ascii_alphabetic() || c == '\'')
                && word.chars().any(|c| c.is_ascii_lowercase());
            if is_word {
                run.push(word);
            } else {
                flush(&mut run);
            }
            // A sentence ends at its punctuation.
            if token.ends_with(['.', ';', ':', '!', '?']) {
                flush(&mut run);
            }
        }
        flush(&mut run);
    }
    found
}

#[test]
fn the_english_sentence_heuristic_finds_prose_and_leaves_names_alone() {
    assert_eq!(
        english_sentences("错误：the host is unreachable").len(),
        1,
        "a sentence"
    );
    assert_eq!(
        english_sentences("The last build failed; the page shows the last good build.").len(),
        2
    );
    for chinese in [
        "数据来源：",
        "  sr zh-CN: html https://sr.mihoyo.com/news?nav=news&type=notice",
        "  ak zh-CN: pageData https://ak.hypergryph.com/api/news?page=1 （文章：https://ak.hypergryph.com/news/{cid}）",
        "请运行 `activity-site version new GAME --version V` 开始新版本",
        "警告[locale-parity]: 版本比 data/zzz/en-US.json 的旧：这份文件落后了",
    ] {
        assert!(english_sentences(chinese).is_empty(), "{chinese}");
    }
}

/// Issue 57, point 6: under `--lang zh-CN` (given before the command, with
/// `--now` and `--root` too), `status`, `check` and `version new` on the
/// bundled tree print no English sentence, and neither does an import that
/// cannot reach its site.
#[test]
fn status_check_and_version_new_say_nothing_in_english_under_zh_cn() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    for part in ["games.json", "data", "schema"] {
        let from = crate_root().join(part);
        if from.is_dir() {
            crate::util::copy_tree(&from, &root.join(part));
        } else {
            std::fs::create_dir_all(&root).unwrap();
            std::fs::copy(&from, root.join(part)).unwrap();
        }
    }
    let root_arg = root.to_str().unwrap();
    let global = [
        "--lang",
        "zh-CN",
        "--root",
        root_arg,
        "--now",
        "2026-11-27T12:00:00",
    ];
    let commands: [&[&str]; 4] = [
        &["status"],
        &["check"],
        &[
            "version",
            "new",
            "sr",
            "--version",
            "4.7",
            "--name",
            "新版本",
            "--start",
            "2026-11-11T11:00:00",
            "--end",
            "2026-12-23T05:59:59",
            "--dry-run",
        ],
        &["import", "--from", "http://127.0.0.1:9", "--games", "sr"],
    ];
    let mut transcript = String::new();
    for command in commands {
        let mut args = global.to_vec();
        args.extend_from_slice(command);
        let output = crate::util::run(dir.path(), &args);
        let code = output.status.code();
        assert_ne!(code, None, "{command:?}");
        if command[0] != "import" {
            assert_ne!(code, Some(2), "{command:?}: {}", stderr(&output));
        }
        transcript.push_str(&crate::util::stdout(&output));
        transcript.push_str(&stderr(&output));
    }
    // The data's own words (activity and version names of the English
    // documents) fill placeholders: they are not the tool's sentences.
    let mut words = transcript.clone();
    for entry in walkdir::WalkDir::new(root.join("data")) {
        let entry = entry.unwrap();
        if entry.path().extension().is_none_or(|e| e != "json") {
            continue;
        }
        let doc: serde_json::Value =
            serde_json::from_slice(&std::fs::read(entry.path()).unwrap()).unwrap();
        let activities = doc["activities"].as_array().cloned().unwrap_or_default();
        let names = activities
            .iter()
            .map(|a| &a["name"])
            .chain([&doc["versionName"]])
            .filter_map(serde_json::Value::as_str);
        for name in names {
            words = words.replace(name, "…");
        }
    }
    let english = english_sentences(&words);
    assert!(
        english.is_empty(),
        "English under --lang zh-CN:\n{}\n\n{transcript}",
        english.join("\n")
    );
}
