//! Validation: parsing, JSON Schema and the rules, producing diagnostics. No I/O.
//!
//! Each file is parsed once, by [`crate::json`], into a tree that borrows
//! from its text and knows every byte range; parsing also reports keys given
//! twice (`duplicate-key`), which a map would silently collapse. Every rule
//! runs on every file, so one `check` reports every problem: a file with
//! syntax errors whose fixes are all exact is checked as those fixes read
//! it, at the places of the text as typed ([`parse_recovering`]); one whose
//! reading is uncertain says which checks wait for its syntax. Rules read the
//! tree (not the typed model), so a file with a schema error still gets its
//! dates checked. Positions come from [`spans`], which maps a pointer or a
//! byte range onto lines and character columns only when there is something
//! to say.
//!
//! The published JSON Schemas are the authority on structure. For activity
//! documents checked against the built-in schema, [`rules::schema_valid`]
//! decides on the tree whether the schema would accept the document, and only
//! when it would not (or when the root ships its own schema, or the file
//! repeats a key) is the document converted to a `serde_json::Value` and
//! handed to the `jsonschema` crate, whose errors become the diagnostics. A
//! test holds the two verdicts equal on every fixture.

pub mod announcements;
pub mod flags;
pub mod rules;
pub mod spans;
mod syntax;
#[cfg(test)]
mod tests;

use chrono::NaiveDateTime;
use serde::Deserialize as _;
use serde_json::Value;

use crate::clock::Now;
use crate::diagnostics::{Code, Diagnostic, Fix, Location, Severity};
use crate::i18n::{Msg, msg};
use crate::json;
use crate::kind;
use crate::model::{ActivityDocument, Draft, Game};
use crate::source::{JsonFile, LoadedFile, LoadedGame, Project, SourceFile};
use spans::{Spans, Target};

/// Settings of a check.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// "Now", read in each game's time zone; `None` means the clock.
    pub now: Option<Now>,
    /// The ids of a base revision of the tree (`check --changed-since`,
    /// or the checkout's `HEAD`), which `missing-id` gives back to the
    /// activities that lost theirs; `None` without one.
    pub base: Option<std::sync::Arc<crate::model::ids::Base>>,
}

impl Options {
    /// "Now" as a local time of `game`, through the one owner [`crate::clock`].
    pub fn now_for(&self, game: &Game) -> NaiveDateTime {
        self.now.unwrap_or_else(Now::read).for_game(game)
    }
}

/// The compiled schemas; build once, use for every file.
pub struct Validator {
    activity: jsonschema::Validator,
    games: jsonschema::Validator,
    /// The schema of each kind checked file by file ([`FILE_KINDS`]), in that order.
    files: Vec<jsonschema::Validator>,
    /// Whether the activity schema is the built-in one, which
    /// [`rules::schema_valid`] mirrors.
    builtin_activity: bool,
}

/// A checked game: its typed documents (where they parsed) and its diagnostics.
#[derive(Debug, Clone)]
pub struct CheckedGame {
    pub game: Game,
    /// One entry per locale, in the registry's order; `None` where the file is
    /// missing or broken. Empty when the check was asked not to keep documents.
    pub documents: Vec<(String, Option<TypedDocument>)>,
    pub diagnostics: Vec<Diagnostic>,
}

/// A document a check kept: typed, its times times, when the check found
/// no error in it (what builds and `version new` read); else as written,
/// for what reports on files with errors (`status`).
#[derive(Debug, Clone)]
pub enum TypedDocument {
    Checked(ActivityDocument),
    Draft(Draft),
}

impl TypedDocument {
    /// The checked document; `None` for one whose file has errors.
    pub fn checked(&self) -> Option<&ActivityDocument> {
        match self {
            TypedDocument::Checked(document) => Some(document),
            TypedDocument::Draft(_) => None,
        }
    }

    /// [`TypedDocument::checked`], taken.
    pub fn into_checked(self) -> Option<ActivityDocument> {
        match self {
            TypedDocument::Checked(document) => Some(document),
            TypedDocument::Draft(_) => None,
        }
    }
}

/// What a kind checked file by file (one file per locale, no registry
/// between them: the announcements boards) adds to the check every file
/// gets (the strict parse, the kind's schema, invisible characters): its
/// rules, the words of its schema errors and its typed model. The kind's
/// own file of this folder implements it and [`FILE_KINDS`] lists it; the
/// check, the build, the editor, the agents and `fmt` reach a kind's rules
/// only through [`rules_of`].
pub trait FileRules: Sync {
    /// The kind it checks.
    fn kind(&self) -> &'static kind::Kind;
    /// The fields an object `depth` levels below the document may have
    /// (the schema's), for a misspelt field's help.
    fn known_keys(&self, depth: usize) -> &'static [&'static str];
    /// The help of a schema error on `field`, when it has a better one
    /// than the schema's.
    fn schema_help(&self, _field: &str) -> Option<Msg> {
        None
    }
    /// The sentence of a schema error its schema's keywords give (a
    /// minimum, a value not in a list, a pattern), when the kind says it
    /// better than the schema crate (whose sentence is English); `found`
    /// is the value as JSON.
    fn schema_message(&self, _error: SchemaError, _field: &str, _found: &str) -> Option<Msg> {
        None
    }
    /// The error for a file in the kind's folder that is not one of its
    /// (`<locale>.json` with a language tag).
    fn orphan(&self, path: &str) -> (Msg, Msg);
    /// The rules beside the schema, on the parsed document; none by
    /// default (the schema and invisible characters are every kind's).
    fn rules(&self, _root: &json::Node<'_>, _report: &mut Reporter<'_>) {}
    /// Whether a document the schema and the rules accepted reads as the
    /// kind's typed model (what the build publishes): [`reads_as`] its model.
    fn reads(&self, value: &Value) -> bool;
    /// The canonical text of a document (`fmt`'s, `$schema` kept); `None`
    /// when `text` does not read as the kind's model: [`canonical_as`] its
    /// model, unless the model writes itself otherwise.
    fn canonical(&self, text: &str) -> Option<String>;
}

/// Whether `value` reads as the typed model `T` ([`FileRules::reads`]).
pub fn reads_as<T: serde::de::DeserializeOwned>(value: &Value) -> bool {
    T::deserialize(value).is_ok()
}

/// The canonical text of `text` read as the typed model `T`: its fields in
/// the model's order, 2-space indentation, a trailing newline
/// ([`FileRules::canonical`]).
pub fn canonical_as<T: serde::de::DeserializeOwned + serde::Serialize>(
    text: &str,
) -> Option<String> {
    serde_json::from_str::<T>(text)
        .ok()
        .map(|document| crate::model::to_pretty(&document))
}

/// The schema errors a [`FileRules`] may word itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SchemaError {
    /// A number below the schema's `minimum`.
    Minimum,
    /// A value the schema's `enum` does not list.
    Enum,
    /// A string the schema's `pattern` does not match.
    Pattern,
}

/// Every kind checked file by file, by the module that checks it. A kind
/// of [`kind::ALL`] whose sources are one file per locale is here
/// (`tests/kinds.rs` says so when one is not).
pub static FILE_KINDS: &[&dyn FileRules] = &[&announcements::RULES];

/// The rules of a kind checked file by file; `None` for the activity
/// documents (checked game by game, [`Validator::game`]) and the kept files.
pub fn rules_of(kind: &kind::Kind) -> Option<&'static dyn FileRules> {
    FILE_KINDS
        .iter()
        .copied()
        .find(|rules| kind::same(rules.kind(), kind))
}

/// A checked file of a kind checked file by file ([`FileRules`]):
/// `data/_announcements/<locale>.json`.
#[derive(Debug, Clone)]
pub struct CheckedFile {
    pub kind: &'static kind::Kind,
    pub locale: String,
    /// Path relative to the root.
    pub path: String,
    /// The document, when the check was asked to keep it and found no
    /// error in it (it reads as the kind's typed model: [`FileRules::reads`]).
    pub document: Option<Value>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Parses a source file: the tree, or a `json-syntax` diagnostic for every
/// syntax error (see [`json::parse_all`]). A file with a syntax error gets
/// no schema or rule diagnostics here: [`parse_recovering`] is the reading
/// the checks run on.
pub fn parse(source: &SourceFile) -> Result<JsonFile<'_>, Vec<Diagnostic>> {
    match parse_recovering(source, Waiting::None) {
        (Some(file), errors) if errors.is_empty() => Ok(file),
        (_, errors) => Err(errors),
    }
}

/// The checks that wait for a file's syntax when recovery cannot read it
/// for certain, by the kind of document (named in the note that says so).
#[derive(Debug, Clone, Copy)]
pub enum Waiting {
    /// No note (a caller that reports no rules).
    None,
    Registry,
    /// A document of a kind: every rule of its declaration ([`kind::Kind::rules`]).
    Document(&'static kind::Kind),
}

impl Waiting {
    fn codes(self) -> &'static [Code] {
        match self {
            Waiting::None => &[],
            Waiting::Registry => &[
                Code::DuplicateKey,
                Code::Schema,
                Code::GamesRegistry,
                Code::MissingFile,
                Code::PendingLocale,
                Code::OrphanFile,
                Code::Whitespace,
            ],
            Waiting::Document(kind) => kind.rules,
        }
    }
}

/// Parses a source file for the checks: its tree and a `json-syntax`
/// diagnostic for every syntax error. A file with syntax errors still gets
/// a tree when recovery's reading of it is certain: every error has an
/// exact fix, and those fixes together give JSON (the reading `check --fix`
/// applies); the tree's byte ranges are those of the text as typed, so the
/// rules run on it point at what the contributor wrote. Otherwise there is
/// no tree, and the last syntax error says which checks (those of `waiting`)
/// wait for the syntax.
pub fn parse_recovering(
    source: &SourceFile,
    waiting: Waiting,
) -> (Option<JsonFile<'_>>, Vec<Diagnostic>) {
    fn file<'s>(source: &'s SourceFile, parsed: json::Parsed<'s>) -> JsonFile<'s> {
        JsonFile {
            path: &source.path,
            text: &source.text,
            root: parsed.root,
            duplicates: parsed.duplicates,
        }
    }
    let recovered = match json::parse_recovering(&source.text) {
        Ok(parsed) => return (Some(file(source, parsed)), Vec::new()),
        Err(recovered) => recovered,
    };
    let mut found = syntax::diagnostics(&source.path, &source.text, &recovered.errors);
    let certain = recovered.parsed.filter(|_| {
        let fixes: Vec<&Fix> = found.iter().filter_map(|d| d.fix.as_ref()).collect();
        let (fixed, applied) = crate::diagnostics::apply_fixes(&source.text, &fixes);
        applied == found.len() && is_json(&fixed)
    });
    let codes = waiting.codes();
    if certain.is_none()
        && !codes.is_empty()
        && let Some(last) = found.last_mut()
    {
        let names: Vec<&str> = codes.iter().map(|c| c.as_str()).collect();
        last.notes.push(msg!(
            "syntax-checks-wait",
            count = codes.len(),
            codes = crate::i18n::list(&names)
        ));
    }
    (certain.map(|parsed| file(source, parsed)), found)
}

/// Whether `text` is JSON to the strict parser (what `check --fix` asks of
/// a file before it writes its fixes).
pub fn is_json(text: &str) -> bool {
    json::parse(text).is_ok()
}

impl Validator {
    /// Compiles the project's schemas. `Err` when a schema is not a valid JSON Schema.
    pub fn new(project: &Project) -> anyhow::Result<Self> {
        let compile = |schema: &Value, path: &str| {
            jsonschema::draft202012::new(schema).map_err(|err| {
                anyhow::Error::new(msg!("schema-invalid", path = path, error = err.to_string()))
            })
        };
        // The schema of a kind as the project read it (every kind's, by
        // `load::load`).
        let of_kind = |k: &kind::Kind| {
            let path = k.schema.as_ref().map_or(k.name, |s| s.source);
            let schema = project
                .schema(k)
                .ok_or_else(|| anyhow::Error::new(msg!("err-read", path = path)))?;
            anyhow::Ok((schema, path))
        };
        let (activity, activity_path) = of_kind(&kind::activities::KIND)?;
        let files = FILE_KINDS
            .iter()
            .map(|rules| {
                let (schema, path) = of_kind(rules.kind())?;
                compile(schema, path)
            })
            .collect::<anyhow::Result<_>>()?;
        let builtin = kind::activities::KIND.schema.as_ref().map(|s| s.builtin);
        let builtin: Option<Value> = builtin.and_then(|text| serde_json::from_str(text).ok());
        Ok(Validator {
            activity: compile(activity, activity_path)?,
            games: compile(&project.games_schema, crate::tree::GAMES_SCHEMA_PATH)?,
            files,
            builtin_activity: builtin.as_ref() == Some(activity),
        })
    }

    /// Checks `games.json` and the set of data files. Returns the games that
    /// parsed and the diagnostics.
    pub fn registry(&self, project: &Project) -> (Vec<Game>, Vec<Diagnostic>) {
        let mut diagnostics = project.diagnostics.clone();
        let Some(source) = &project.registry else {
            return (Vec::new(), diagnostics);
        };
        // A registry read past syntax errors lists its games as read: they
        // are checked too, and the errors keep anything from being built.
        let (file, syntax) = parse_recovering(source, Waiting::Registry);
        diagnostics.extend(syntax);
        let Some(file) = file else {
            return (Vec::new(), diagnostics);
        };
        let mut report = Reporter::new(&file);
        report.duplicates(&file);
        let value = file.root.to_value();
        schema_errors(&self.games, &value, &mut report, Doc::Registry);
        let games = rules::registry(&value, &project.data_files, &mut report);
        rules::invisible(&file.root, None, &mut report);
        diagnostics.extend(report.finish());
        (games, diagnostics)
    }

    /// Whether the schema accepts the document in `text`, as decided on the
    /// tree ([`rules::schema_valid`]) and by the `jsonschema` crate; `None`
    /// when `text` is not JSON. The two must agree (a test holds them to it).
    pub fn schema_verdicts(&self, text: &str) -> Option<(bool, bool)> {
        let parsed = json::parse(text).ok()?;
        let typed = rules::schema_valid(&parsed.root);
        let schema = self.activity.is_valid(&parsed.root.to_value());
        Some((typed, schema))
    }

    /// Checks one game's files. With [`Keep::Documents`] the typed
    /// documents come back too (for building); else `documents` is empty.
    pub fn game(&self, loaded: &LoadedGame, options: &Options, keep: Keep) -> CheckedGame {
        let mut diagnostics = loaded.diagnostics.clone();
        let now = options.now_for(&loaded.game);
        let mut documents = Vec::new();
        let mut parsed: Vec<(JsonFile<'_>, &str, bool)> = Vec::new();
        for file in &loaded.files {
            let (json, syntax) = match &file.source {
                Some(source) => {
                    parse_recovering(source, Waiting::Document(&kind::activities::KIND))
                }
                None => (None, Vec::new()),
            };
            let broken = !syntax.is_empty();
            diagnostics.extend(syntax);
            let Some(json) = json else {
                if keep == Keep::Documents {
                    documents.push((file.locale.clone(), None));
                }
                continue;
            };
            let mut report = Reporter::new(&json);
            report.duplicates(&json);
            let fast = self.builtin_activity && json.duplicates.is_empty();
            if !fast || !rules::schema_valid(&json.root) {
                let value = json.root.to_value();
                if !fast || !self.activity.is_valid(&value) {
                    schema_errors(&self.activity, &value, &mut report, Doc::Activity);
                }
            }
            rules::document(&json.root, &loaded.game, now, &mut report);
            rules::invisible(&json.root, None, &mut report);
            let mut found = report.finish();
            waive(&loaded.game, &mut found);
            let has_errors = found.iter().any(Diagnostic::is_error);
            diagnostics.extend(found);
            if keep == Keep::Documents {
                // A document read past syntax errors is not built from;
                // one with errors is kept as written.
                let document = (!broken)
                    .then(|| {
                        let value = json.root.to_value();
                        if has_errors {
                            Draft::deserialize(value).ok().map(TypedDocument::Draft)
                        } else {
                            ActivityDocument::deserialize(value)
                                .ok()
                                .map(TypedDocument::Checked)
                        }
                    })
                    .flatten();
                documents.push((file.locale.clone(), document));
            }
            // Parity compares clean files only: an error already says what
            // is wrong. Ids are asked of every file read for certain.
            if !broken {
                parsed.push((json, &file.locale, !has_errors));
            }
        }
        diagnostics.extend(across_locales(
            &loaded.game,
            &parsed,
            options.base.as_deref(),
        ));
        CheckedGame {
            game: loaded.game.clone(),
            documents,
            diagnostics,
        }
    }
}

/// The rules across a game's locales, on its files read past their syntax
/// (`parsed`: each with its locale and whether it is free of errors): ids
/// on every activity of every locale, paired across locales; locale parity,
/// every other locale against the default one, on clean files only (an
/// error already says what is wrong).
fn across_locales(
    game: &Game,
    parsed: &[(JsonFile<'_>, &str, bool)],
    base: Option<&crate::model::ids::Base>,
) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    let files: Vec<(&JsonFile<'_>, &str)> = parsed.iter().map(|(json, l, _)| (json, *l)).collect();
    let mut reports: Vec<Reporter<'_>> =
        files.iter().map(|(json, _)| Reporter::new(json)).collect();
    rules::missing_ids(game, &files, base, &mut reports);
    for report in reports {
        let mut found = report.finish();
        waive(game, &mut found);
        diagnostics.extend(found);
    }
    let clean: Vec<(&JsonFile<'_>, &str)> = parsed
        .iter()
        .filter(|(_, _, clean)| *clean)
        .map(|(json, l, _)| (json, *l))
        .collect();
    let Some((default, _)) = clean.iter().find(|(_, l)| *l == game.default_locale) else {
        return diagnostics;
    };
    for (other, locale) in &clean {
        if *locale == game.default_locale {
            continue;
        }
        let mut on_default = Reporter::new(default);
        let mut on_other = Reporter::new(other);
        rules::locale_parity(default, other, &mut on_default, &mut on_other);
        for mut found in [on_default.finish(), on_other.finish()] {
            waive(game, &mut found);
            diagnostics.extend(found);
        }
    }
    diagnostics
}

/// Drops the warnings `game` turns off for its files (`conventions.ignore`
/// of `games.json`); errors always stay.
fn waive(game: &Game, found: &mut Vec<Diagnostic>) {
    if game.conventions.ignore.is_empty() {
        return;
    }
    found.retain(|d| d.is_error() || !game.conventions.ignores(d.code.as_str()));
}

/// What a check keeps beside its diagnostics: nothing more (`check`, the
/// editor's live check), or the typed documents of what it checked (a
/// build renders them; `fmt`, `status` and `diff` read them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// The diagnostics alone.
    Diagnostics,
    /// The typed documents too.
    Documents,
}

impl Validator {
    /// Checks one file of a kind checked file by file: the strict parse,
    /// the kind's schema, its rules ([`FileRules::rules`]) and invisible
    /// characters, as a data file is checked. With [`Keep::Documents`] the
    /// document comes back too when the check found no error in it.
    pub fn file(
        &self,
        rules: &'static dyn FileRules,
        file: &LoadedFile,
        keep: Keep,
    ) -> CheckedFile {
        let kind = rules.kind();
        let mut checked = CheckedFile {
            kind,
            locale: file.locale.clone(),
            path: file.path.clone(),
            document: None,
            diagnostics: Vec::new(),
        };
        if !rules::is_language_tag(&file.locale)
            || kind.locale_path(&file.locale).as_deref() != Some(file.path.as_str())
        {
            let (message, help) = rules.orphan(&file.path);
            checked
                .diagnostics
                .push(Diagnostic::orphan(&file.path, message, help));
            return checked;
        }
        let Some(source) = &file.source else {
            return checked;
        };
        let (json, mut syntax) = parse_recovering(source, Waiting::Document(kind));
        let broken = !syntax.is_empty();
        let Some(json) = json else {
            checked.diagnostics.append(&mut syntax);
            return checked;
        };
        let mut report = Reporter::new(&json);
        report.duplicates(&json);
        let value = json.root.to_value();
        let schema = FILE_KINDS
            .iter()
            .position(|r| kind::same(r.kind(), kind))
            .and_then(|at| self.files.get(at));
        if let Some(schema) = schema
            && !schema.is_valid(&value)
        {
            schema_errors(schema, &value, &mut report, Doc::File(rules));
        }
        rules.rules(&json.root, &mut report);
        rules::invisible(&json.root, None, &mut report);
        checked.diagnostics = syntax;
        checked.diagnostics.extend(report.finish());
        if keep == Keep::Documents
            && !broken
            && !checked.diagnostics.iter().any(Diagnostic::is_error)
            && rules.reads(&value)
        {
            checked.document = Some(value);
        }
        checked
    }
}

/// Which kind of document a schema error is about.
#[derive(Clone, Copy)]
enum Doc {
    Registry,
    Activity,
    /// A file of a kind checked file by file.
    File(&'static dyn FileRules),
}

/// Collects diagnostics for one file, locating pointers lazily.
pub struct Reporter<'a> {
    file: &'a str,
    spans: Spans<'a>,
    diagnostics: Vec<Diagnostic>,
}

impl<'a> Reporter<'a> {
    pub fn new(json: &'a JsonFile<'a>) -> Self {
        Reporter {
            file: json.path,
            spans: Spans::new(json.text, &json.root),
            diagnostics: Vec::new(),
        }
    }

    /// Reports a problem with the value at `pointer`.
    pub fn value(
        &mut self,
        pointer: &str,
        code: Code,
        severity: Severity,
        message: Msg,
        help: Option<Msg>,
    ) {
        let at = self.spans.locate(pointer, Target::Value);
        self.push(at, code, severity, message, help);
    }

    /// Reports a problem with the key at `pointer`.
    pub fn key(
        &mut self,
        pointer: &str,
        code: Code,
        severity: Severity,
        message: Msg,
        help: Option<Msg>,
    ) {
        let at = self.spans.locate(pointer, Target::Key);
        self.push(at, code, severity, message, help);
    }

    /// The text of a byte range of the file.
    pub fn source(&self, start: usize, end: usize) -> &'a str {
        self.spans.text().get(start..end).unwrap_or("")
    }

    /// The whole text of the file.
    pub fn text(&self) -> &'a str {
        self.spans.text()
    }

    /// Where a byte range of the file is.
    pub fn location(&self, start: usize, end: usize) -> Location {
        self.spans.location(start, end)
    }

    /// Reports a problem at a location of the file.
    pub fn push(
        &mut self,
        at: Location,
        code: Code,
        severity: Severity,
        message: Msg,
        help: Option<Msg>,
    ) {
        self.diagnostics.push(Diagnostic {
            code,
            severity,
            file: self.file.to_string(),
            line: at.line,
            column: at.column,
            message,
            help,
            notes: Vec::new(),
            width: at.width,
            fix: None,
            choices: Vec::new(),
        });
    }

    /// The text of the value at `pointer` as the file writes it.
    pub fn value_text(&self, pointer: &str) -> Option<&'a str> {
        let (start, end) = self.spans.range(pointer, Target::Value)?;
        self.spans.text().get(start..end)
    }

    /// Adds a line of detail under the diagnostic reported last.
    pub fn note(&mut self, note: Msg) {
        if let Some(last) = self.diagnostics.last_mut() {
            last.notes.push(note);
        }
    }

    /// Attaches the exact repair to the diagnostic reported last: the value
    /// (or key) at `pointer` becomes the JSON string `replacement`.
    pub fn fix_string(&mut self, pointer: &str, target: Target, replacement: &str) {
        if let Some((start, end)) = self.spans.range(pointer, target) {
            let quoted = serde_json::to_string(replacement).expect("a string serializes");
            self.fix_range(start, end, quoted);
        }
    }

    /// Attaches the exact repair to the diagnostic reported last: the bytes
    /// `start..end` of the file become `replacement`.
    pub fn fix_range(&mut self, start: usize, end: usize, replacement: String) {
        if let Some(last) = self.diagnostics.last_mut() {
            last.fix = Some(Fix {
                start,
                end,
                replacement,
            });
        }
    }

    /// Attaches repairs to pick one of to the diagnostic reported last
    /// ([`Diagnostic::choices`]).
    pub fn choices(&mut self, choices: Vec<crate::diagnostics::Choice>) {
        if let Some(last) = self.diagnostics.last_mut() {
            last.choices = choices;
        }
    }

    /// `duplicate-key`: every key given twice in one object, at the repetition.
    fn duplicates(&mut self, json: &JsonFile<'_>) {
        for duplicate in &json.duplicates {
            let first = self.location(duplicate.first, duplicate.first + 1);
            let at = self.location(duplicate.start, duplicate.end);
            self.push(
                at,
                Code::DuplicateKey,
                Severity::Error,
                msg!(
                    "duplicate-key",
                    key = duplicate.key.as_str(),
                    line = first.line
                ),
                Some(msg!(
                    "duplicate-key-help",
                    line = first.line,
                    column = first.column
                )),
            );
        }
    }

    pub fn finish(self) -> Vec<Diagnostic> {
        self.diagnostics
    }
}

/// Turns schema errors into `schema` diagnostics. Pattern errors on times and
/// (in the registry) on ids are left to the `datetime` and `games-registry`
/// rules, which say more.
fn schema_errors(
    validator: &jsonschema::Validator,
    value: &Value,
    report: &mut Reporter<'_>,
    doc: Doc,
) {
    use jsonschema::error::ValidationErrorKind as Kind;
    let registry = matches!(doc, Doc::Registry);
    let mut said = SchemaReport { value, doc, report };
    for error in validator.iter_errors(value) {
        let pointer = error.instance_path().as_str().to_string();
        let field = spans::split_pointer(&pointer).pop().unwrap_or_default();
        if let Some(message) = said.own_message(&error, &field) {
            let help = said.help_for(&field);
            said.report
                .value(&pointer, Code::Schema, Severity::Error, message, help);
            continue;
        }
        match error.kind() {
            Kind::Pattern { .. } if field == "startTime" || field == "endTime" => continue,
            Kind::Pattern { .. } | Kind::UniqueItems if registry => continue,
            // "dataSource or dataSources": the registry rule says it in words.
            Kind::AnyOf { .. } if registry => continue,
            Kind::AdditionalProperties { unexpected } => said.unknown_fields(&pointer, unexpected),
            Kind::Required { property } => {
                said.missing_field(&pointer, property.as_str().unwrap_or_default());
            }
            Kind::MinLength { limit: 1 } => {
                let help = said.help_for(&field);
                said.report.value(
                    &pointer,
                    Code::Schema,
                    Severity::Error,
                    msg!("schema-empty", field = field.as_str()),
                    help,
                );
            }
            Kind::Type { kind } => said.mistyped(&error, kind, &pointer, &field),
            _ => {
                // The schema crate's own sentence, for the keywords the
                // built-in schemas rarely trip: left in its English.
                let message = msg!("schema-other", detail = error.to_string());
                said.report
                    .value(&pointer, Code::Schema, Severity::Error, message, None);
            }
        }
    }
}

/// Where [`schema_errors`] says what it found, and about what.
struct SchemaReport<'a, 'r> {
    /// The document checked.
    value: &'a Value,
    doc: Doc,
    report: &'a mut Reporter<'r>,
}

impl SchemaReport<'_, '_> {
    /// The help a kind checked file by file gives for `field`.
    fn help_for(&self, field: &str) -> Option<Msg> {
        match self.doc {
            Doc::File(rules) => rules.schema_help(field),
            _ => None,
        }
    }

    /// A minimum, a list of values or a pattern missed: in the kind's
    /// words when it has them.
    fn own_message(&self, error: &jsonschema::ValidationError<'_>, field: &str) -> Option<Msg> {
        use jsonschema::error::ValidationErrorKind as Kind;
        let Doc::File(rules) = self.doc else {
            return None;
        };
        let error_kind = match error.kind() {
            Kind::Minimum { .. } => SchemaError::Minimum,
            Kind::Enum { .. } => SchemaError::Enum,
            Kind::Pattern { .. } => SchemaError::Pattern,
            _ => return None,
        };
        rules.schema_message(error_kind, field, &error.instance().to_string())
    }

    /// Keys the schema does not know, each with the one it probably
    /// means (renamed by the fix when that is exact), or those it knows.
    fn unknown_fields(&mut self, pointer: &str, unexpected: &[String]) {
        let known = known_keys(pointer, self.doc);
        for key in unexpected {
            let key_pointer = format!("{pointer}/{}", spans::escape_segment(key));
            let suggestion = did_you_mean(key, &known);
            let help = suggestion
                .map(|k| msg!("did-you-mean", name = k))
                .or_else(|| {
                    Some(msg!(
                        "schema-known-fields",
                        fields = crate::i18n::list(&known)
                    ))
                });
            self.report.key(
                &key_pointer,
                Code::Schema,
                Severity::Error,
                msg!("schema-unknown-field", key = key.as_str()),
                help,
            );
            // Renaming is exact only while the right key is absent:
            // otherwise the rename would repeat it.
            let object = self.value.pointer(pointer).and_then(Value::as_object);
            if let Some(right) = suggestion
                && object.is_some_and(|o| !o.contains_key(right))
            {
                self.report.fix_string(&key_pointer, Target::Key, right);
            }
        }
    }

    /// A required field `name` missing from the object at `pointer`
    /// (unless a misspelt key already stands for it).
    fn missing_field(&mut self, pointer: &str, name: &str) {
        let known = known_keys(pointer, self.doc);
        if misspelt_as_unknown(self.value, pointer, name, &known) {
            // The unknown-field diagnostic already says "did you mean".
            return;
        }
        let help = missing_field_help(self.value, pointer, name).or_else(|| match self.doc {
            Doc::Registry => None,
            Doc::Activity | Doc::File(_) => Some(what_to_add(name)),
        });
        let message = match activity_name(self.value, pointer) {
            Some(activity) => {
                msg!(
                    "schema-activity-missing-field",
                    activity = activity,
                    name = name
                )
            }
            None => msg!("schema-missing-field", name = name),
        };
        self.report
            .value(pointer, Code::Schema, Severity::Error, message, help);
    }

    /// A value of the wrong type; a number where text belongs
    /// (`"version": 4.7`) is quoted as written, which is exact.
    fn mistyped(
        &mut self,
        error: &jsonschema::ValidationError<'_>,
        kind: &jsonschema::error::TypeKind,
        pointer: &str,
        field: &str,
    ) {
        let message = wrong_type(error, field);
        let quote = matches!(
            kind,
            jsonschema::error::TypeKind::Single(jsonschema::JsonType::String)
        ) && error.instance().is_number();
        let written = quote
            .then(|| self.report.value_text(pointer))
            .flatten()
            .map(str::to_string);
        let help = written.as_ref().map(|raw| {
            msg!(
                "schema-quote-number-help",
                whole = if field.is_empty() { "yes" } else { "no" },
                field = field,
                raw = raw.as_str()
            )
        });
        let help = help.or_else(|| self.help_for(field));
        self.report
            .value(pointer, Code::Schema, Severity::Error, message, help);
        if let Some(raw) = written {
            self.report.fix_string(pointer, Target::Value, &raw);
        }
    }
}

/// The name of the activity at `pointer` (`/activities/N`), when it has one.
fn activity_name<'v>(document: &'v Value, pointer: &str) -> Option<&'v str> {
    let rest = pointer.strip_prefix("/activities/")?;
    if rest.contains('/') {
        return None;
    }
    document.pointer(pointer)?.get("name")?.as_str()
}

/// What a missing field of an activity document looks like when added.
fn what_to_add(name: &str) -> Msg {
    match name {
        "description" => msg!("add-description"),
        "name" => msg!("add-name"),
        "startTime" | "endTime" => msg!("add-time", name = name),
        "activities" => msg!("add-activities"),
        _ => msg!("add-field", name = name),
    }
}

/// "wrong type for `name`: 1 is not of type "string" (found a number)",
/// with the schema crate's sentence taken apart so each language words it.
fn wrong_type(error: &jsonschema::ValidationError<'_>, field: &str) -> Msg {
    let instance = error.instance();
    let value = instance.to_string();
    let sentence = error.to_string();
    let (count, expected) = match sentence.strip_prefix(value.as_str()) {
        Some(rest) => match rest.strip_prefix(" is not of types ") {
            Some(types) => (2usize, types.to_string()),
            None => (
                1,
                rest.strip_prefix(" is not of type ")
                    .unwrap_or(rest)
                    .to_string(),
            ),
        },
        None => (1, sentence.clone()),
    };
    msg!(
        "schema-wrong-type",
        whole = if field.is_empty() { "yes" } else { "no" },
        field = field,
        value = value,
        count = count,
        expected = expected,
        found = kind_of(instance)
    )
}

/// How a message names the type of a JSON value: "a string", "an object", "null".
pub fn kind_of(value: &Value) -> Msg {
    match value {
        Value::Null => msg!("kind-null"),
        Value::Bool(_) => msg!("kind-boolean"),
        Value::Number(n) if n.is_f64() => msg!("kind-number"),
        Value::Number(_) => msg!("kind-integer"),
        Value::String(_) => msg!("kind-string"),
        Value::Array(_) => msg!("kind-array"),
        Value::Object(_) => msg!("kind-object"),
    }
}

/// Whether the object at `pointer` has an unknown key that is a typo of `name`.
fn misspelt_as_unknown(document: &Value, pointer: &str, name: &str, known: &[&str]) -> bool {
    let Some(object) = document.pointer(pointer).and_then(Value::as_object) else {
        return false;
    };
    object
        .keys()
        .filter(|k| !known.contains(&k.as_str()))
        .any(|k| did_you_mean(k, known) == Some(name))
}

/// When a required field is missing but a misspelt one is present, name it.
fn missing_field_help(document: &Value, pointer: &str, name: &str) -> Option<Msg> {
    let object = document.pointer(pointer)?.as_object()?;
    let candidates: Vec<&str> = object.keys().map(String::as_str).collect();
    did_you_mean(name, &candidates)
        .map(|k| msg!("schema-misspelt-present", present = k, name = name))
}

/// The fields an object at `pointer` may have.
fn known_keys(pointer: &str, doc: Doc) -> Vec<&'static str> {
    let depth = spans::split_pointer(pointer).len();
    if let Doc::File(rules) = doc {
        return rules.known_keys(depth).to_vec();
    }
    if matches!(doc, Doc::Registry) {
        if depth == 0 {
            vec!["$schema", "games"]
        } else if pointer.ends_with("/conventions") {
            vec!["endSeconds", "ignore"]
        } else if depth >= 4 {
            vec![
                "type",
                "url",
                "articleUrl",
                "script",
                "repository",
                "userAgent",
            ]
        } else {
            vec![
                "id",
                "name",
                "locales",
                "defaultLocale",
                "dataSource",
                "dataSources",
                "timeZone",
                "updateMode",
                "conventions",
            ]
        }
    } else if depth == 0 {
        rules::DOCUMENT_KEYS.to_vec()
    } else {
        rules::ACTIVITY_KEYS.to_vec()
    }
}

/// The closest candidate to `word`, when it is close enough to be a typo.
pub fn did_you_mean<'c>(word: &str, candidates: &[&'c str]) -> Option<&'c str> {
    let lower = word.to_lowercase();
    candidates
        .iter()
        .filter(|c| **c != word)
        .map(|c| (strsim::jaro_winkler(&lower, &c.to_lowercase()), *c))
        .filter(|(score, _)| *score > 0.85)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}
