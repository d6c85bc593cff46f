//! The structure around simple commands, dissolved: reserved words in
//! command position (`if then elif else fi while until do done { } !
//! time coproc`) only start the next command; the heads of `for`/`select`
//! (`for NAME in WORDS`), of `case WORD in`, case patterns (`pat)`,
//! `(a|b)`), `[[ … ]]` tests and function names (`f ()`, `function f`)
//! are not commands, but the substitutions in them are kept. One loop with
//! a stack of open `case`s: no recursion, whatever the nesting, except
//! into substitutions (bounded by the lexer).

use super::blocks::Blocks;
use super::command::{Command, MAX_WORDS, Pipeline};
use super::fields;
use super::heredoc;
use super::lexer::{Lexer, Sep, Token, Word};

/// What the next word is, when it is not an ordinary word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    Normal,
    /// After `for`/`select`: the loop variable.
    LoopName,
    /// After the loop variable: `in`, or the body.
    LoopIn,
    /// The words after `in`, up to the separator.
    LoopWords,
    /// After `case`: the word matched.
    CaseWord,
    /// After the case word: `in`.
    CaseIn,
    /// After `function`: the name.
    FunctionName,
    /// After a function name: the optional `()`.
    FunctionParens,
    /// After `NAME (`: the `)`.
    CloseParens,
    /// Inside `[[ … ]]`.
    Test,
    /// After `time`: its options.
    TimeOptions,
}

/// Where an open `case` is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Case {
    Pattern,
    Body,
}

struct Parser {
    pipelines: Vec<Pipeline>,
    pipeline: Pipeline,
    cmd: Command,
    redirect: Option<String>,
    expect: Expect,
    cases: Vec<Case>,
    /// Open subshell parentheses in this script.
    parens: usize,
    /// After `coproc`: its first word may be the coprocess's name.
    coproc: bool,
    /// Inside a substitution nothing is kept: its body is parsed again
    /// when a guard looks into it.
    keep: bool,
    /// Open compound commands and the pipelines they hold (`blocks.rs`).
    blocks: Blocks,
    /// How many of the command's first words are known assignments.
    assignments: usize,
}

/// Parses a whole script, handing each pipeline to `f` as soon as it is
/// complete, with how deep substitutions nested in the text read so far;
/// stops at the first `Some`. Only one pipeline is held at a time.
pub(super) fn script<T>(
    lx: &mut Lexer<'_>,
    mut f: impl FnMut(Pipeline, usize) -> Option<T>,
) -> Option<T> {
    let mut p = Parser::new(true);
    while let Some(token) = lx.token() {
        p.blocks.settle(
            &token,
            p.redirect.is_some(),
            &mut p.pipeline,
            &mut p.pipelines,
        );
        if let Token::RParen = token
            && p.close_paren()
        {
            // A stray `)`: ends the command, as a separator would.
            p.end();
        } else {
            p.token(lx, token);
        }
        for pipeline in std::mem::take(&mut p.pipelines) {
            if let Some(t) = f(pipeline, lx.nesting()) {
                return Some(t);
            }
        }
    }
    p.finish()
        .into_iter()
        .find_map(|pipeline| f(pipeline, lx.nesting()))
}

/// The inside of a substitution, up to the `)` that closes it (consumed).
/// Returns where the body ends.
pub(super) fn nested(lx: &mut Lexer<'_>) -> usize {
    let mut p = Parser::new(false);
    while let Some(token) = lx.token() {
        p.blocks.settle(
            &token,
            p.redirect.is_some(),
            &mut p.pipeline,
            &mut p.pipelines,
        );
        if let Token::RParen = token
            && p.close_paren()
        {
            return lx.i - 1;
        }
        p.token(lx, token);
    }
    lx.len()
}

/// Reserved words that only start the next command.
const KEYWORDS: &[&str] = &[
    "if", "then", "elif", "else", "fi", "while", "until", "do", "done", "{", "}", "!", "esac",
];

impl Parser {
    fn new(keep: bool) -> Self {
        Parser {
            pipelines: Vec::new(),
            pipeline: Vec::new(),
            cmd: Command::default(),
            redirect: None,
            expect: Expect::Normal,
            cases: Vec::new(),
            parens: 0,
            coproc: false,
            keep,
            blocks: Blocks::default(),
            assignments: 0,
        }
    }

    /// Handles a `)`; true when it closes nothing open here (the
    /// substitution's end, or a stray one).
    fn close_paren(&mut self) -> bool {
        if self.expect == Expect::CloseParens {
            self.expect = Expect::Normal;
            return false;
        }
        if self.expect == Expect::Test {
            return false;
        }
        if let Some(top) = self.cases.last_mut()
            && *top == Case::Pattern
        {
            *top = Case::Body;
            return false;
        }
        if self.parens > 0 {
            // `( … ) | sh`: the subshell's output goes on down the pipe.
            self.parens -= 1;
            self.close_block();
            return false;
        }
        true
    }

    fn token(&mut self, lx: &mut Lexer<'_>, token: Token) {
        match token {
            Token::Word(w) => self.word(lx, w),
            Token::Redirect(op) => {
                if self.expect != Expect::Test {
                    self.redirect = Some(op);
                }
            }
            Token::Pipe => {
                if !self.in_pattern() && self.expect != Expect::Test {
                    self.flush_cmd();
                }
            }
            Token::Sep(sep) => {
                if self.expect == Expect::Test && sep == Sep::AndOr {
                    return;
                }
                if sep == Sep::Newline && (self.in_pattern() || self.expect == Expect::CaseIn) {
                    return;
                }
                self.end_with(sep == Sep::Background);
            }
            Token::CaseEnd => {
                self.end();
                if let Some(top) = self.cases.last_mut() {
                    *top = Case::Pattern;
                }
            }
            Token::LParen => self.open_paren(),
            Token::RParen => {}
        }
    }

    fn open_paren(&mut self) {
        if self.in_pattern() || self.expect == Expect::Test {
            return;
        }
        if self.expect == Expect::FunctionParens {
            self.expect = Expect::CloseParens;
            return;
        }
        // `NAME ( )`: a function definition, its name is not a command;
        // `coproc NAME ( … )`: the name of a coprocess.
        if self.cmd.words.len() == 1 && self.redirect.is_none() {
            let name = self.cmd.words.pop();
            if self.coproc {
                self.coproc = false;
            } else {
                self.blocks.pending = name;
                self.expect = Expect::CloseParens;
                return;
            }
        }
        // `… | ( … )`: the subshell reads the pipe.
        if self.cmd.words.is_empty() {
            self.end_command();
        } else {
            self.end();
        }
        self.parens += 1;
        self.blocks.open();
    }

    fn in_pattern(&self) -> bool {
        self.cases.last() == Some(&Case::Pattern) && self.expect == Expect::Normal
    }

    fn word(&mut self, lx: &mut Lexer<'_>, mut w: Word) {
        if self.full() {
            return;
        }
        if w.splits.is_empty() || self.redirect.is_some() || self.assignment(&w.text) {
            return self.one_word(lx, w);
        }
        // `rm${IFS}-rf`: fields, none of them a reserved word.
        self.cmd.substitutions.append(&mut w.subs);
        let names_command = self.cmd.words.is_empty() && self.expect == Expect::Normal;
        let before = self.cmd.words.len();
        for field in fields::split(&w.text, &w.splits) {
            if self.full() {
                break;
            }
            let word = Word {
                text: field.to_owned(),
                quoted: true,
                ..Word::default()
            };
            self.one_word(lx, word);
        }
        let made = self.cmd.words.len().saturating_sub(before);
        if names_command && made > 1 {
            self.cmd.ifs_name = Some((w.text, made));
        }
    }

    /// Whether the command holds `MAX_WORDS` words and substitutions: it
    /// is marked, and what follows is not kept, so memory stays bounded.
    fn full(&mut self) -> bool {
        let full = self.cmd.words.len() + self.cmd.substitutions.len() >= MAX_WORDS;
        self.cmd.too_many_words |= full;
        full
    }

    /// Whether `text` is an assignment in the command's prefix (every word
    /// before it is one too), which the shell does not split. The words
    /// already seen to be assignments are not looked at again, so a long
    /// prefix costs linear work.
    fn assignment(&mut self, text: &str) -> bool {
        let words = &self.cmd.words;
        self.assignments = self.assignments.min(words.len());
        while words
            .get(self.assignments)
            .is_some_and(|w| fields::is_assignment(w))
        {
            self.assignments += 1;
        }
        self.assignments == words.len() && fields::is_assignment(text)
    }

    fn one_word(&mut self, lx: &mut Lexer<'_>, w: Word) {
        let Word {
            text, subs, quoted, ..
        } = w;
        self.cmd.substitutions.extend(subs);
        if let Some(op) = self.redirect.take() {
            match op.as_str() {
                "<<" | "<<-" => {
                    let body = heredoc::body(lx, &text, op == "<<-");
                    if !quoted {
                        let subs = heredoc::substitutions(lx, &body);
                        self.cmd.substitutions.extend(subs);
                    }
                    self.cmd.here.push(body);
                }
                "<<<" => self.cmd.here.push(text),
                _ => self.cmd.redirects.push((op, text)),
            }
            return;
        }
        let reserved = !quoted && self.cmd.words.is_empty();
        match self.expect {
            Expect::LoopName => self.expect = Expect::LoopIn,
            Expect::LoopIn if !quoted && text == "in" => self.expect = Expect::LoopWords,
            Expect::LoopWords => {}
            Expect::CaseWord => self.expect = Expect::CaseIn,
            Expect::CaseIn => {
                self.expect = Expect::Normal;
                self.cases.push(Case::Pattern);
            }
            Expect::FunctionName => {
                self.blocks.pending = Some(text);
                self.expect = Expect::FunctionParens;
            }
            Expect::Test => {
                if !quoted && text == "]]" {
                    self.expect = Expect::Normal;
                }
            }
            Expect::TimeOptions if !quoted && (text == "-p" || text == "--") => {}
            // Any other option is not bash's `time` keyword's: read the line
            // as the `time` program (`time -f %e -o out cmd`), which the
            // wrapper table sees through.
            Expect::TimeOptions if !quoted && text.starts_with('-') => {
                self.expect = Expect::Normal;
                self.cmd.words.push("time".to_owned());
                self.cmd.words.push(text);
            }
            _ if self.in_pattern() => {
                if reserved && text == "esac" {
                    self.cases.pop();
                    self.close_block();
                }
            }
            _ => {
                self.expect = Expect::Normal;
                if reserved {
                    self.reserved(text);
                } else if self.coproc && !quoted && self.cmd.words.len() == 1 && text == "{" {
                    // `coproc NAME { …; }`: NAME names the coprocess.
                    self.coproc = false;
                    self.cmd.words.clear();
                } else {
                    self.blocks.pending = None;
                    self.cmd.words.push(text);
                }
            }
        }
    }

    /// A word in command position.
    fn reserved(&mut self, text: String) {
        match text.as_str() {
            "for" | "select" => self.expect = Expect::LoopName,
            "case" => {
                self.expect = Expect::CaseWord;
                self.blocks.open();
            }
            "function" => self.expect = Expect::FunctionName,
            "[[" => self.expect = Expect::Test,
            "time" => self.expect = Expect::TimeOptions,
            "coproc" => self.coproc = true,
            "esac" => {
                self.cases.pop();
                self.close_block();
            }
            "{" | "if" | "do" => self.blocks.open(),
            "}" | "fi" | "done" => self.close_block(),
            k if KEYWORDS.contains(&k) => {}
            _ => self.cmd.words.push(text),
        }
    }

    fn flush_cmd(&mut self) {
        let c = std::mem::take(&mut self.cmd);
        if self.keep
            && (!c.words.is_empty()
                || !c.redirects.is_empty()
                || !c.substitutions.is_empty()
                || !c.here.is_empty())
        {
            self.pipeline.push(c);
        }
    }

    /// The end of a pipeline.
    fn end(&mut self) {
        self.end_with(false);
    }

    /// The end of a command that a pipe may continue (a subshell's edge).
    fn end_command(&mut self) {
        self.flush_cmd();
        self.redirect = None;
        self.coproc = false;
        if !matches!(
            self.expect,
            Expect::CaseWord | Expect::CaseIn | Expect::FunctionParens
        ) {
            self.expect = Expect::Normal;
        }
    }

    /// `}`, `)`, `fi`, `done`, `esac`: the innermost block ends; the
    /// pipeline it leaves open goes on (`( … ) | sh`).
    fn close_block(&mut self) {
        self.end_command();
        self.blocks.close_block(&self.pipeline, &mut self.pipelines);
    }

    /// The end of a pipeline; `background` when `&` ends it.
    fn end_with(&mut self, background: bool) {
        self.end_command();
        let pipeline = std::mem::take(&mut self.pipeline);
        self.blocks
            .end_pipeline(pipeline, background, &mut self.pipelines);
    }

    fn finish(mut self) -> Vec<Pipeline> {
        self.blocks.release(&mut self.pipelines);
        self.end();
        self.blocks.finish(&mut self.pipelines);
        self.pipelines
    }
}
