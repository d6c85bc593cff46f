//! Compound commands as units of output: `{ …; }`, `( … )`, `if … fi`,
//! loops' `do … done` and `case … esac`. What every command inside one
//! prints goes wherever the whole goes, so `{ echo 'rm -rf /'; } | sh`
//! pipes the echo into `sh` although a `;` ends the echo's own pipeline.
//! Pipelines that end inside an open block are held until the outermost
//! block closes; when a `|` follows the close, they join the pipeline as
//! its upstream, otherwise they are handed on as they are.
//!
//! Also where functions are defined: a function whose body starts copies
//! of itself in a pipeline or in the background (`:(){ :|:& };:`,
//! `f(){ f&f; }`) is a fork bomb, whatever it is named or however it is
//! spaced, and text that only looks like one (`echo ':(){ :|:& };:'`) is
//! not a definition.

use super::command::{Command, MAX_PIPELINE, Pipeline};
use super::lexer::Token;

/// A function being defined, and how its body calls itself.
struct Func {
    name: String,
    /// The block depth inside its body.
    depth: usize,
    calls: usize,
    piped: bool,
    background: bool,
}

impl Func {
    /// Each call starts at least two copies that go on at once: the
    /// number of processes doubles at every level.
    fn is_bomb(&self) -> bool {
        self.piped || (self.background && self.calls >= 2)
    }
}

#[derive(Default)]
pub(super) struct Blocks {
    /// How many blocks are open.
    depth: usize,
    /// Pipelines ended inside open blocks, in order.
    held: Vec<Pipeline>,
    /// `(depth, index in held)` of the first pipeline each open block
    /// holds, for the blocks that hold any: nothing is kept for a block
    /// that holds nothing, so deep empty nesting costs no memory.
    starts: Vec<(usize, usize)>,
    funcs: Vec<Func>,
    /// A function name just read (`f ()`, `function f`): the next block
    /// opened is its body.
    pub(super) pending: Option<String>,
    /// Where in `held` the pipelines of the block just closed start, until
    /// the next token tells whether a `|` takes them on. They stay where
    /// they are meanwhile: a block's pipelines move only when a pipe takes
    /// them or the outermost block ends, so deep nesting costs linear work.
    closed: Option<usize>,
}

impl Blocks {
    pub(super) fn open(&mut self) {
        self.depth += 1;
        if let Some(name) = self.pending.take() {
            self.funcs.push(Func {
                name,
                depth: self.depth,
                calls: 0,
                piped: false,
                background: false,
            });
        }
    }

    /// Hands a finished pipeline on: held while a block is open, else out.
    pub(super) fn route(&mut self, pipeline: Pipeline, out: &mut Vec<Pipeline>) {
        if self.depth == 0 {
            out.push(pipeline);
            return;
        }
        if self.starts.last().map(|s| s.0) != Some(self.depth) {
            self.starts.push((self.depth, self.held.len()));
        }
        self.held.push(pipeline);
    }

    /// Closes the innermost block: its pipelines wait in `closed`, and a
    /// fork bomb found in a function body closing here goes to `out`.
    fn close(&mut self, out: &mut Vec<Pipeline>) {
        if self.depth == 0 {
            return;
        }
        self.closed = match self.starts.last() {
            Some(&(d, start)) if d == self.depth => {
                self.starts.pop();
                Some(start)
            }
            _ => None,
        };
        if self.funcs.last().is_some_and(|f| f.depth == self.depth)
            && let Some(func) = self.funcs.pop()
        {
            bomb(func, out);
        }
        self.depth -= 1;
    }

    /// Counts the calls a pipeline of the function being defined makes
    /// to that function; `background` when the pipeline ends with `&`.
    pub(super) fn note_calls(&mut self, pipeline: &Pipeline, background: bool) {
        let Some(func) = self.funcs.last_mut() else {
            return;
        };
        let calls = pipeline
            .iter()
            .filter(|c| c.words.first() == Some(&func.name))
            .count();
        if calls > 0 {
            func.calls += calls;
            func.piped |= pipeline.len() > 1;
            func.background |= background;
        }
    }

    /// At the end of the input: blocks left open (a missing `fi`, `}`)
    /// end there, and everything they held is handed on.
    pub(super) fn finish(&mut self, out: &mut Vec<Pipeline>) {
        self.closed = None;
        out.append(&mut self.held);
        while let Some(func) = self.funcs.pop() {
            bomb(func, out);
        }
        self.starts.clear();
        self.depth = 0;
    }
}

impl Blocks {
    /// Before each token: the pipelines of a block just closed join
    /// `pipeline` when a `|` follows (past redirections of the block,
    /// `redirecting` while one waits for its target), and are handed on as
    /// they are otherwise.
    pub(super) fn settle(
        &mut self,
        token: &Token,
        redirecting: bool,
        pipeline: &mut Pipeline,
        out: &mut Vec<Pipeline>,
    ) {
        let Some(start) = self.closed else {
            return;
        };
        match token {
            Token::Pipe => {
                self.closed = None;
                let mut joined: Pipeline = self.held.drain(start..).flatten().collect();
                joined.append(pipeline);
                if joined.len() > MAX_PIPELINE {
                    joined.truncate(MAX_PIPELINE);
                    if let Some(first) = joined.first_mut() {
                        first.too_long_pipeline = true;
                    }
                }
                *pipeline = joined;
            }
            Token::Redirect(_) => {}
            Token::Word(_) if redirecting => {}
            _ => self.release(out),
        }
    }

    /// Hands on the pipelines of the block closed last: to the block that
    /// encloses it, where they already are, or out at the top level.
    pub(super) fn release(&mut self, out: &mut Vec<Pipeline>) {
        let Some(start) = self.closed.take() else {
            return;
        };
        if self.depth == 0 {
            out.extend(self.held.drain(start..));
        } else if self.starts.last().map(|s| s.0) != Some(self.depth) {
            self.starts.push((self.depth, start));
        }
    }

    /// The innermost block ends, `open` being the pipeline not yet ended
    /// inside it (`( echo x )`): its pipelines wait for the next token.
    pub(super) fn close_block(&mut self, open: &Pipeline, out: &mut Vec<Pipeline>) {
        self.note_calls(open, false);
        self.release(out);
        self.close(out);
    }

    /// A pipeline ended (`background` when `&` ends it).
    pub(super) fn end_pipeline(
        &mut self,
        pipeline: Pipeline,
        background: bool,
        out: &mut Vec<Pipeline>,
    ) {
        self.note_calls(&pipeline, background);
        if !pipeline.is_empty() {
            self.route(pipeline, out);
        }
    }
}

fn bomb(func: Func, out: &mut Vec<Pipeline>) {
    if func.is_bomb() {
        out.push(vec![Command {
            fork_bomb: Some(func.name),
            ..Command::default()
        }]);
    }
}
