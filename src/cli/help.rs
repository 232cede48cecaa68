//! `--help` in the reader's language.
//!
//! The derive in `cli.rs` names each help text by a message identifier
//! (`help-cmd-check`, `help-arg-root`, `help-value-format-json`); the
//! messages live in the `.ftl` files beside every other message. [`parse`]
//! chooses the language before clap sees the arguments (`--lang` wherever
//! it stands, else the environment, as [`Lang::from_env`] reads it), and
//! [`localized_command`] hands clap a command whose texts are already in
//! that language:
//!
//! - every command's about and examples (`after_help`), every argument's
//!   help and every value's help;
//! - what clap adds around them: the `[default: …]`, `[env: …]` and
//!   `[possible values: …]` notes and the list of values under `--help`
//!   (clap's own are hidden and ours written in their place), the help and
//!   version flags and the `help` command;
//! - the fixed words: the usage line (`Usage:`, `[OPTIONS]`, `<COMMAND>`)
//!   and the `Commands:`, `Arguments:` and `Options:` headings, through a
//!   help template per command.
//!
//! clap's parse errors (`error: unexpected argument …`) stay English apart
//! from the usage line they repeat: clap builds their tips as finished
//! English text, which an error formatter could only translate by parsing
//! it. Hidden commands and arguments (the backend simulator, test knobs)
//! keep the English their doc comments give.

use std::ffi::OsString;

use clap::builder::PossibleValue;
use clap::{Arg, ArgAction, Command, CommandFactory, FromArgMatches, ValueEnum};

use super::Cli;
use crate::i18n::{Lang, list, msg};

/// Parses the process's arguments with the help in the language they ask
/// for; prints help, version or a usage error and exits as clap does.
pub fn parse() -> Cli {
    let args: Vec<OsString> = std::env::args_os().collect();
    // A command line that parses prints no help: the bare command parses
    // it, and the texts are rendered only for help, a version or an error
    // (the same command, so the same outcome).
    if let Ok(mut matches) = Cli::command().try_get_matches_from(&args)
        && let Ok(cli) = Cli::from_arg_matches_mut(&mut matches)
    {
        return cli;
    }
    let lang = lang_of(&args).unwrap_or_else(Lang::from_env);
    // A flag's value parser (`--now`) explains a wrong value in this language.
    crate::i18n::set_process(lang);
    let mut command = localized_command(lang);
    let mut matches = command
        .try_get_matches_from_mut(args)
        .unwrap_or_else(|err| err.exit());
    Cli::from_arg_matches_mut(&mut matches).unwrap_or_else(|err| err.format(&mut command).exit())
}

/// The language `--lang LANG` or `--lang=LANG` names among `args` (the
/// first, the program's name, is skipped; nothing after `--` counts).
/// `None` when absent or not a language the tool speaks: the environment
/// then chooses, and clap reports the wrong value.
pub fn lang_of(args: &[OsString]) -> Option<Lang> {
    let mut args = args.iter().skip(1).map(|a| a.to_str());
    while let Some(arg) = args.next() {
        let value = match arg {
            Some("--") => return None,
            Some("--lang") => args.next().flatten(),
            Some(other) => other.strip_prefix("--lang="),
            None => None,
        };
        if let Some(lang) = value.and_then(|v| <Lang as ValueEnum>::from_str(v, false).ok()) {
            return Some(lang);
        }
    }
    None
}

/// The command line of the tool with every help text in `lang`.
pub fn localized_command(lang: Lang) -> Command {
    let mut command = Cli::command();
    // Built first, so the flags, the `help` command and the global
    // arguments clap adds are there to be translated too. Everything after
    // keeps the order of arguments (`mut_args`), which the built lookup
    // tables index.
    command.build();
    localize(command, lang)
}

/// The text of a help message named by `id`, in `lang`. An identifier
/// missing from the `.ftl` files is shown as it is (the tests hold every
/// visible one to both files).
fn text(id: &str, lang: Lang) -> String {
    crate::i18n::lookup(id, lang).unwrap_or_else(|| id.to_string())
}

fn localize(command: Command, lang: Lang) -> Command {
    if command.is_hide_set() {
        return command;
    }
    let generated_help = command.get_name() == "help" && !is_message(command.get_about());
    let about = if generated_help {
        Some(msg!("help-cmd-help").render(lang))
    } else {
        command.get_about().map(|id| text(&id.to_string(), lang))
    };
    let after_help = command
        .get_after_help()
        .map(|id| text(&id.to_string(), lang));
    let mut command = command
        .mut_args(|arg| localize_arg(arg, lang))
        .mut_subcommands(|sub| localize(sub, lang));
    if let Some(about) = about {
        command = command.about(about);
    }
    if let Some(after_help) = after_help {
        command = command.after_help(after_help);
    }
    // The usage line clap computes (required arguments, groups, the
    // subcommand) after its own word, with its placeholders in `lang`.
    let usage = command.render_usage().to_string();
    let mut usage = usage
        .split_once(' ')
        .map_or(usage.as_str(), |(_, rest)| rest)
        .replace(
            "[OPTIONS]",
            &msg!("help-word-options-placeholder").render(lang),
        );
    if command.has_subcommands() {
        let placeholder = msg!("help-word-command-placeholder").render(lang);
        if let Some(head) = usage.strip_suffix(" <COMMAND>") {
            usage = format!("{head} <{placeholder}>");
        } else if let Some(head) = usage.strip_suffix(" [COMMAND]") {
            usage = format!("{head} [{placeholder}]");
        }
    }
    let template = template(&command, lang);
    command.override_usage(usage).help_template(template)
}

/// Whether a help text is a message identifier (the derive's), not text clap wrote.
fn is_message(text: Option<&clap::builder::StyledStr>) -> bool {
    text.is_some_and(|t| t.to_string().starts_with("help-"))
}

/// clap's default layout (about, usage, commands, arguments, options,
/// examples) with the fixed words in `lang`, styled as clap styles them.
fn template(command: &Command, lang: Lang) -> String {
    let styles = command.get_styles();
    let header = styles.get_header();
    let usage_style = styles.get_usage();
    let usage_line = msg!("help-word-usage", usage = "{usage}").render(lang);
    let usage_line = match usage_line.split_once("{usage}") {
        Some((word, rest)) => {
            let bare = word.trim_end();
            format!(
                "{usage_style}{bare}{usage_style:#}{}{{usage}}{rest}",
                &word[bare.len()..]
            )
        }
        None => usage_line,
    };
    let mut sections = Vec::new();
    if command.get_subcommands().any(|sub| !sub.is_hide_set()) {
        sections.push((msg!("help-word-commands"), "{subcommands}"));
    }
    if command.get_positionals().any(|arg| !arg.is_hide_set()) {
        sections.push((msg!("help-word-arguments"), "{positionals}"));
    }
    if command
        .get_arguments()
        .any(|arg| !arg.is_positional() && !arg.is_hide_set())
    {
        sections.push((msg!("help-word-options"), "{options}"));
    }
    let sections: Vec<String> = sections
        .into_iter()
        .map(|(heading, tag)| {
            let heading = heading.render(lang);
            format!("{header}{heading}{header:#}\n{tag}")
        })
        .collect();
    format!(
        "{{before-help}}{{about-with-newline}}\n{usage_line}\n\n{}{{after-help}}",
        sections.join("\n\n")
    )
}

fn localize_arg(arg: Arg, lang: Lang) -> Arg {
    if arg.is_hide_set() {
        return arg;
    }
    match arg.get_action() {
        ArgAction::Help | ArgAction::HelpShort | ArgAction::HelpLong => {
            return if arg.get_long_help().is_some() {
                arg.help(msg!("help-flag-help-more").render(lang))
                    .long_help(msg!("help-flag-help-summary").render(lang))
            } else {
                arg.help(msg!("help-flag-help").render(lang))
            };
        }
        ArgAction::Version => return arg.help(msg!("help-flag-version").render(lang)),
        _ => {}
    }
    let help = arg
        .get_help()
        .map(|id| text(&id.to_string(), lang))
        .unwrap_or_default();
    let mut notes = Vec::new();
    if let Some(name) = arg.get_env().filter(|_| !arg.is_hide_env_set()) {
        notes.push(msg!("help-word-env", name = name.to_string_lossy().into_owned()).render(lang));
    }
    let takes_values = arg.get_action().takes_values();
    let defaults: Vec<String> = arg
        .get_default_values()
        .iter()
        .map(|v| v.to_string_lossy().into_owned())
        .collect();
    if takes_values && !defaults.is_empty() && !arg.is_hide_default_value_set() {
        notes.push(msg!("help-word-default", value = defaults.join(" ")).render(lang));
    }
    let values: Vec<PossibleValue> = if takes_values && !arg.is_hide_possible_values_set() {
        arg.get_possible_values()
            .into_iter()
            .filter(|v| !v.is_hide_set())
            .collect()
    } else {
        Vec::new()
    };
    let described = values.iter().any(|v| v.get_help().is_some());
    let mut short = help.clone();
    let mut short_notes = notes.clone();
    if !values.is_empty() {
        let names: Vec<&str> = values.iter().map(PossibleValue::get_name).collect();
        short_notes.push(msg!("help-word-possible", values = list(&names)).render(lang));
    }
    for note in &short_notes {
        if !short.is_empty() {
            short.push(' ');
        }
        short.push_str(note);
    }
    let arg = arg
        .hide_env(true)
        .hide_default_value(true)
        .hide_possible_values(true)
        .help(short);
    if !described {
        return arg;
    }
    // Under `--help`: each value on its own line with what it does.
    let mut long = help;
    if !notes.is_empty() {
        long.push_str("\n\n");
        long.push_str(&notes.join("\n"));
    }
    long.push_str("\n\n");
    long.push_str(&msg!("help-word-possible-heading").render(lang));
    for value in &values {
        long.push('\n');
        let line = match value.get_help() {
            Some(id) => msg!(
                "help-word-possible-item",
                name = value.get_name(),
                text = text(&id.to_string(), lang)
            ),
            None => msg!("help-word-possible-name", name = value.get_name()),
        };
        long.push_str(&line.render(lang));
    }
    arg.long_help(long)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lang(args: &[&str]) -> Option<Lang> {
        let args: Vec<OsString> = std::iter::once("activity-site")
            .chain(args.iter().copied())
            .map(OsString::from)
            .collect();
        lang_of(&args)
    }

    #[test]
    fn lang_is_read_wherever_it_stands_before_clap_parses() {
        assert_eq!(lang(&["--lang", "zh-CN", "--help"]), Some(Lang::ZhCn));
        assert_eq!(lang(&["check", "--help", "--lang=zh-CN"]), Some(Lang::ZhCn));
        assert_eq!(lang(&["check", "--lang", "en-US"]), Some(Lang::EnUs));
        assert_eq!(lang(&["check", "--", "--lang", "zh-CN"]), None);
        assert_eq!(lang(&["--lang", "fr"]), None);
        assert_eq!(lang(&["--lang"]), None);
        assert_eq!(lang(&["check"]), None);
    }
}
