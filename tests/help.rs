//! `--help` in the contributors' language (issue 49): every command's and
//! flag's help, the examples, the usage line and clap's fixed words follow
//! `--lang` and the environment, from the `.ftl` files, through the binary.

use activity_site::i18n::{Lang, lookup};
use clap::CommandFactory;

use crate::util::crate_root;

/// The binary's exit code and standard output with `args`, only the
/// language variables of `env` set and no colour.
fn help(args: &[&str], env: &[(&str, &str)]) -> (i32, String) {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_activity-site"));
    command
        .args(args)
        .current_dir(crate_root())
        .env("NO_COLOR", "1")
        .env_remove("COLUMNS");
    for name in ["LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"] {
        command.env_remove(name);
    }
    command.envs(env.iter().copied());
    let output = command.output().expect("the binary runs");
    assert!(
        output.stderr.is_empty(),
        "{args:?} wrote to stderr: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).expect("help is UTF-8"),
    )
}

/// The visible commands, as the words that name them (`["version", "new"]`).
fn command_paths() -> Vec<Vec<String>> {
    fn walk(command: &clap::Command, path: &[String], out: &mut Vec<Vec<String>>) {
        for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
            let mut path = path.to_vec();
            path.push(sub.get_name().to_string());
            out.push(path.clone());
            walk(sub, &path, out);
        }
    }
    let mut out = vec![Vec::new()];
    walk(&activity_site::cli::Cli::command(), &[], &mut out);
    out
}

/// What English would leave in a Chinese help: clap's words and ours.
const ENGLISH: &[&str] = &[
    "Usage:",
    "Commands:",
    "Arguments:",
    "Options:",
    "[OPTIONS]",
    "[COMMAND]",
    "[default:",
    "[possible values:",
    "Possible values:",
    "[env:",
    "[aliases:",
    "Print help",
    "Print version",
    "Example",
    "help-",
];

#[test]
fn help_is_chinese_with_lang_and_with_the_environment() {
    let (code, chinese) = help(&["--lang", "zh-CN", "--help"], &[]);
    assert_eq!(code, 0);
    let (_, by_env) = help(&["--help"], &[("LANG", "zh_CN.UTF-8")]);
    assert_eq!(
        by_env, chinese,
        "LANG=zh_CN.UTF-8 differs from --lang zh-CN"
    );
    // `--lang` after the command, and as `--lang=`, chooses as well.
    let (_, after) = help(&["check", "--help", "--lang=zh-CN"], &[]);
    let (_, before) = help(&["--lang", "zh-CN", "check", "--help"], &[]);
    assert_eq!(after, before);
    // `--lang en-US` wins over a Chinese environment.
    let (_, english) = help(&["--lang", "en-US", "--help"], &[("LANG", "zh_CN.UTF-8")]);
    assert_eq!(english, help(&["--help"], &[]).1);
    insta::assert_snapshot!("help_zh_cn", chinese);
    insta::assert_snapshot!("help_check_zh_cn", before);
    insta::assert_snapshot!(
        "help_check_short_zh_cn",
        help(&["--lang", "zh-CN", "check", "-h"], &[]).1
    );
    insta::assert_snapshot!("help_en_us", english);
    insta::assert_snapshot!("help_check_en_us", help(&["check", "--help"], &[]).1);
}

/// Every visible command, in both forms (`-h`, `--help`): the Chinese has
/// none of the English words, and it names the same flags as the English.
#[test]
fn every_command_help_is_chinese_with_the_same_flags() {
    let paths = command_paths();
    assert!(paths.len() > 12, "{paths:?}");
    let mut problems = Vec::new();
    for path in &paths {
        for flag in ["-h", "--help"] {
            let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
            args.push(flag);
            let (code, english) = help(&args, &[]);
            let mut zh = vec!["--lang", "zh-CN"];
            zh.extend(&args);
            let (zh_code, chinese) = help(&zh, &[]);
            assert_eq!((code, zh_code), (0, 0), "{args:?}");
            match chinese
                .lines()
                .find(|l| l.starts_with("用法：activity-site"))
            {
                None => problems.push(format!("{args:?}: no Chinese usage line:\n{chinese}")),
                Some(usage) if usage.contains("<COMMAND>") => {
                    problems.push(format!("{args:?}: `<COMMAND>` in `{usage}`"));
                }
                Some(_) => {}
            }
            for word in ENGLISH {
                if chinese.contains(word) {
                    problems.push(format!(
                        "{args:?}: `{word}` in the Chinese help:\n{chinese}"
                    ));
                }
            }
            let flags = |text: &str| -> Vec<String> {
                text.split_whitespace()
                    .filter(|w| w.starts_with("--"))
                    .map(|w| {
                        w.trim_end_matches([',', ')', '）', ':', ';', '.', '`'])
                            .to_string()
                    })
                    .filter(|w| !w.contains('='))
                    .collect::<std::collections::BTreeSet<_>>()
                    .into_iter()
                    .collect()
            };
            let (en_flags, zh_flags) = (flags(&english), flags(&chinese));
            let missing: Vec<_> = en_flags.iter().filter(|f| !zh_flags.contains(f)).collect();
            if !missing.is_empty() {
                problems.push(format!("{args:?}: the Chinese help lacks {missing:?}"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

/// The derive names each visible help by a message both `.ftl` files hold:
/// every command's about and examples, every flag, every value.
#[test]
fn every_help_text_is_a_message_of_both_languages() {
    let mut problems = Vec::new();
    let mut named = 0;
    let mut need = |what: String, id: Option<String>| match id {
        None => problems.push(format!("{what} has no help")),
        Some(id) => {
            named += 1;
            for lang in Lang::ALL {
                if lookup(&id, lang).is_none() {
                    problems.push(format!("{what}: `{id}` is not a message of {lang}.ftl"));
                }
            }
        }
    };
    fn commands(command: &clap::Command, out: &mut Vec<clap::Command>) {
        out.push(command.clone());
        for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
            commands(sub, out);
        }
    }
    let mut all = Vec::new();
    commands(&activity_site::cli::Cli::command(), &mut all);
    for command in &all {
        let name = command.get_name();
        need(
            format!("command {name}"),
            command.get_about().map(|s| s.to_string()),
        );
        if command.get_subcommands().next().is_none() || name == "version" {
            need(
                format!("command {name}'s examples"),
                command.get_after_help().map(|s| s.to_string()),
            );
        }
        for arg in command.get_arguments().filter(|a| !a.is_hide_set()) {
            let id = arg.get_id();
            need(
                format!("{name} {id}"),
                arg.get_help().map(|s| s.to_string()),
            );
            let values = if arg.get_action().takes_values() {
                arg.get_possible_values()
            } else {
                Vec::new()
            };
            for value in values {
                need(
                    format!("{name} {id} {}", value.get_name()),
                    value.get_help().map(|s| s.to_string()),
                );
            }
        }
    }
    assert!(named > 100, "only {named} help texts");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The examples the help shows are the same commands in both languages.
#[test]
fn the_examples_are_the_same_in_both_languages() {
    for path in command_paths() {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let examples = |text: &str| -> Vec<String> {
            text.lines()
                .map(str::trim)
                .filter(|l| l.starts_with("activity-site ") && !l.contains('[') && !l.contains('<'))
                .map(str::to_string)
                .collect()
        };
        let english = examples(&help(&args, &[]).1);
        let mut zh = vec!["--lang", "zh-CN"];
        zh.extend(&args);
        assert_eq!(examples(&help(&zh, &[]).1), english, "{args:?}");
    }
}

/// The `help` command clap adds speaks the language too, of itself and of
/// the commands it names.
#[test]
fn the_help_command_is_chinese() {
    let (code, text) = help(&["--lang", "zh-CN", "help", "help"], &[]);
    assert_eq!(code, 0);
    assert!(text.contains("用法：activity-site help [命令]"), "{text}");
    assert!(text.contains("显示本帮助，或指定子命令的帮助"), "{text}");
    for word in ENGLISH {
        assert!(!text.contains(word), "`{word}` in:\n{text}");
    }
    assert_eq!(
        help(&["--lang", "zh-CN", "help", "check"], &[]).1,
        help(&["--lang", "zh-CN", "check", "--help"], &[]).1
    );
}
