//! The verbatim folder `data/_files/`: what a site keeps by hand beside the
//! generated files (`robots.txt`, a legacy `api/v1/activities.json`),
//! published byte for byte at the same path relative to the folder, with
//! the content type and cache policy [`crate::layout`] gives its path.
//!
//! Checked for what can be checked: a JSON file must parse (the strict
//! parser of every source file), and no file reaches outside the folder
//! through a link. A kept file never overrides a generated one: the build
//! writes the kept files last and refuses a path it already wrote.

use anyhow::Context as _;

use super::types::OutputFile;
use crate::diagnostics::{Code, Diagnostic, Severity};
use crate::i18n::{Msg, msg};
use crate::load;
use crate::source::{KeptFile, KeptRead, SourceFile, Tree};
use crate::validate;

/// The diagnostics of the kept files: `kept-file` for a file that cannot
/// be published, `json-syntax` for a `.json` file that does not parse.
/// Reads only what the folder holds (nothing when it is absent).
pub fn diagnostics(tree: &Tree) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for KeptRead { file: kept, bytes } in &tree.kept {
        if let Some(problem) = &kept.problem {
            out.push(unpublishable(kept, problem));
            continue;
        }
        if !kept.published.ends_with(".json") {
            continue;
        }
        match bytes {
            Some(Ok(bytes)) => match std::str::from_utf8(bytes) {
                Ok(text) => out.extend(json_problem(&SourceFile {
                    path: kept.path.clone(),
                    text: text.to_owned(),
                })),
                Err(_) => out.extend(load::decode(&kept.path, bytes.clone()).err().map(|d| *d)),
            },
            Some(Err(error)) => out.push(Diagnostic::json_syntax(
                &kept.path,
                1,
                1,
                1,
                msg!("load-read-failed", error = error.as_str()),
                None,
            )),
            None => {}
        }
    }
    out
}

fn json_problem(source: &SourceFile) -> Vec<Diagnostic> {
    validate::parse(source).err().unwrap_or_default()
}

fn unpublishable(kept: &KeptFile, problem: &Msg) -> Diagnostic {
    Diagnostic {
        code: Code::KeptFile,
        severity: Severity::Error,
        file: kept.path.clone(),
        line: 1,
        column: 1,
        message: msg!(
            "kept-unpublishable",
            path = kept.path.as_str(),
            published = kept.published.as_str(),
            problem = problem.clone()
        ),
        help: Some(msg!("kept-unpublishable-help")),
        notes: Vec::new(),
        width: 1,
        fix: None,
        choices: Vec::new(),
    }
}

/// The kept files as files of the site, their bytes as they are.
pub fn outputs(tree: &Tree) -> anyhow::Result<Vec<(String, OutputFile)>> {
    let mut out = Vec::new();
    for KeptRead { file: kept, bytes } in &tree.kept {
        if let Some(problem) = &kept.problem {
            return Err(anyhow::Error::new(unpublishable(kept, problem).message));
        }
        let bytes = match bytes {
            Some(Ok(bytes)) => bytes.clone(),
            Some(Err(error)) => {
                return Err(anyhow::anyhow!("{error}"))
                    .with_context(|| msg!("err-read", path = kept.path.as_str()));
            }
            None => Vec::new(),
        };
        out.push((
            kept.path.clone(),
            OutputFile {
                path: kept.published.clone(),
                bytes,
            },
        ));
    }
    Ok(out)
}

/// The error of a kept file whose path the build generates.
pub fn clash(kept: &str, generated: &str) -> anyhow::Error {
    anyhow::Error::new(msg!("kept-clash", kept = kept, generated = generated))
}
