//! The R functions the guards read, each with its parameters in R's
//! order (for R's argument matching) and what it does with them. Names
//! are without their package (`base::system` is `system`); a package's
//! function the user attached (`library(processx); run(…)`) is the same.

/// What a function does with its arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// Hands the parameter to a shell as a command line.
    Shell(&'static str),
    /// `system2`: `env`, the quoted command and `args` joined by spaces,
    /// `stdout`/`stderr`/`stdin` files as redirections — what R hands to
    /// the shell.
    System2,
    /// Runs a program (first parameter) with an argument vector (second),
    /// no shell between.
    Argv(&'static str, &'static str),
    /// Deletes the parameter's paths (`...`: every argument), recursively
    /// when the `recursive` parameter is not `FALSE` (`Some`), always
    /// (`None` and `true`), or never.
    Delete(&'static str, Option<&'static str>, bool),
    /// Reads the parameter's file.
    Read(&'static str),
    /// Writes the parameter's file (`...`: every argument).
    Write(&'static str),
    /// A `read.*`/`read_*` function of any package: the path is the
    /// argument named `file`, `path`, … or else the first.
    ReadAny,
    /// A `write.*`/`write_*` function: the path is the argument named
    /// `file`, `path`, … or else the second.
    WriteAny,
    /// `file(description, open)`: read, or written when `open` has `w`/`a`.
    Connection,
    /// Copies the first parameter's files to the second (a file or a
    /// directory): as `cp`.
    Copy,
    /// Moves the first parameter's files to the second: as `mv`.
    Move,
    /// `file.append(file1, file2)`: writes the first, reads the second.
    Append,
    /// `Sys.chmod(paths, mode)`: as `chmod`.
    Chmod,
    /// `setwd(dir)`: later relative paths start there.
    Setwd,
    /// R code given as a string to the parameter (`parse(text = …)`).
    Code(&'static str),
    /// `source(file)`: reads its file, or runs R code from the network.
    Source,
    /// Runs R code from a URL (`devtools::source_url`).
    SourceUrl,
    /// `data.table::fread`: `cmd` is a command line, and so is an `input`
    /// with a space and no newline; `file` and other `input` are read.
    Fread,
    /// `do.call(what, args)`: calls `what` with the list `args`.
    DoCall,
    /// `call("name", …)`, `rlang::exec(.fn, …)`: calls the function the
    /// first parameter names with the other arguments.
    Invoke,
    /// `lapply(X, FUN)` and kin: calls the function (parameter 2) on the
    /// data (parameter 1).
    Apply(&'static str, &'static str),
    /// `as.call(list(f, …))`: a call of the list's first element with the
    /// rest.
    AsCall,
    /// `Sys.setenv(NAME = "value")`: the variables later commands get.
    Setenv,
    /// `tools::pskill(pid, signal)`: as `kill`.
    Kill,
    /// Code of another language in a string: C++ (`Rcpp`) or Python
    /// (`reticulate`), read as the shell guard reads inline code.
    Foreign(&'static str),
}

/// The parameters of `system`.
const SYSTEM: &[&str] = &[
    "command",
    "intern",
    "ignore.stdout",
    "ignore.stderr",
    "wait",
    "input",
    "show.output.on.console",
    "minimized",
    "invisible",
    "timeout",
    "receive.console.signals",
];
pub(super) const SYSTEM2: &[&str] = &[
    "command",
    "args",
    "stdout",
    "stderr",
    "stdin",
    "input",
    "env",
    "wait",
    "minimized",
    "invisible",
    "timeout",
];
const PROCESSX: &[&str] = &[
    "command",
    "args",
    "error_on_status",
    "wd",
    "echo_cmd",
    "echo",
];
const SYS: &[&str] = &["cmd", "args", "std_out", "std_err", "std_in", "timeout"];
const APPLY: &[&str] = &["X", "FUN", "..."];
const PURRR: &[&str] = &[".x", ".f", "..."];
const MAP: &[&str] = &["f", "..."];

/// What `name` does, and its parameters; `None` for a function the
/// guards do not read.
pub(super) fn kind(name: &str) -> Option<(Kind, &'static [&'static str])> {
    use Kind::*;
    let k = match name {
        "system" => (Shell("command"), SYSTEM),
        "shell" => (
            Shell("cmd"),
            &["cmd", "shell", "flag", "intern", "wait"][..],
        ),
        "pipe" => (
            Shell("description"),
            &["description", "open", "encoding"][..],
        ),
        "terminalExecute" => (
            Shell("command"),
            &["command", "workingDir", "env", "show"][..],
        ),
        "system2" => (System2, SYSTEM2),
        "run" | "process$new" => (Argv("command", "args"), PROCESSX),
        "exec_wait" | "exec_internal" | "exec_background" => (Argv("cmd", "args"), SYS),
        "unlink" => (
            Delete("x", Some("recursive"), false),
            &["x", "recursive", "force", "expand"][..],
        ),
        "file.remove" => (Delete("...", None, false), &["..."][..]),
        "file_delete" | "link_delete" => (Delete("path", None, false), &["path"][..]),
        "dir_delete" => (Delete("path", None, true), &["path"][..]),
        "readLines" | "readBin" | "readChar" => (Read("con"), &["con", "what", "n"][..]),
        "readRDS" | "load" | "scan" | "sys.source" | "read.dcf" | "readRenviron" => {
            (Read("file"), &["file"][..])
        }
        "yaml.load_file" => (Read("input"), &["input"][..]),
        "fromJSON" => (Read("txt"), &["txt"][..]),
        "writeLines" => (Write("con"), &["text", "con", "sep", "useBytes"][..]),
        "writeBin" | "writeChar" => (Write("con"), &["object", "con"][..]),
        "cat" => (
            Write("file"),
            &["...", "file", "sep", "fill", "labels", "append"][..],
        ),
        "saveRDS" => (Write("file"), &["object", "file"][..]),
        "save" => (Write("file"), &["...", "list", "file"][..]),
        "save.image" | "sink" => (Write("file"), &["file"][..]),
        "write" => (Write("file"), &["x", "file"][..]),
        "download.file" | "curl_download" => (Write("destfile"), &["url", "destfile"][..]),
        "file.create" => (Write("..."), &["..."][..]),
        "dir.create" | "file_create" | "dir_create" | "file_touch" => {
            (Write("path"), &["path"][..])
        }
        "pdf" | "svg" | "postscript" => (Write("file"), &["file"][..]),
        "png" | "jpeg" | "bmp" | "tiff" | "ggsave" => (Write("filename"), &["filename"][..]),
        "file" | "gzfile" | "bzfile" | "xzfile" => (Connection, &["description", "open"][..]),
        "file.copy" => (Copy, &["from", "to", "overwrite"][..]),
        "file_copy" | "dir_copy" => (Copy, &["path", "new_path"][..]),
        "file.rename" => (Move, &["from", "to"][..]),
        "file_move" => (Move, &["path", "new_path"][..]),
        "file.symlink" | "file.link" => (Copy, &["from", "to"][..]),
        "file.append" => (Append, &["file1", "file2"][..]),
        "Sys.chmod" => (Chmod, &["paths", "mode", "use_umask"][..]),
        "setwd" => (Setwd, &["dir"][..]),
        "with_dir" | "local_dir" => (Setwd, &["new"][..]),
        "parse" => (Code("text"), &["file", "n", "text"][..]),
        "str2lang" => (Code("s"), &["s"][..]),
        "str2expression" => (Code("text"), &["text"][..]),
        "source" => (Source, &["file", "local", "echo"][..]),
        "source_url" | "source_gist" => (SourceUrl, &["url"][..]),
        "fread" => (Fread, &["input", "file", "text", "cmd"][..]),
        "do.call" => (DoCall, &["what", "args", "quote", "envir"][..]),
        "invoke" => (DoCall, &[".f", ".x"][..]),
        "as.call" => (AsCall, &["x"][..]),
        "Sys.setenv" => (Setenv, &["..."][..]),
        "pskill" => (Kill, &["pid", "signal"][..]),
        "call" => (Invoke, &["name", "..."][..]),
        "call2" | "exec" => (Invoke, &[".fn", "..."][..]),
        "lapply" | "sapply" | "vapply" => (Apply("X", "FUN"), APPLY),
        "Map" => (Apply("...", "f"), MAP),
        "mapply" => (Apply("...", "FUN"), &["FUN", "..."][..]),
        "map" | "walk" | "map_chr" | "map_lgl" | "map_int" | "map_dbl" | "iwalk" => {
            (Apply(".x", ".f"), PURRR)
        }
        "cppFunction" | "evalCpp" => (Foreign("code"), &["code"][..]),
        "sourceCpp" => (Foreign("code"), &["file", "code"][..]),
        "py_run_string" | "py_eval" => (Foreign("code"), &["code"][..]),
        n if n.starts_with("read.") || n.starts_with("read_") => (ReadAny, &[][..]),
        n if n.starts_with("write.") || n.starts_with("write_") => (WriteAny, &[][..]),
        _ => return None,
    };
    Some(k)
}

/// Whether the guards read calls of `name`.
pub(super) fn known(name: &str) -> bool {
    kind(name).is_some()
}

/// The argument names that hold a path in `read.*`/`write.*` functions.
pub(super) const PATH_NAMES: &[&str] = &["file", "path", "con", "input", "txt", "filename", "sink"];

/// Functions that decode text the guard cannot read.
pub(super) const DECODERS: &[&str] = &[
    "rawToChar",
    "intToUtf8",
    "chartr",
    "rev",
    "base64decode",
    "base64_dec",
    "base64_decode",
    "memDecompress",
    "URLdecode",
    "url_unescape",
    "utf8ToInt",
    "strtoi",
    "iconv",
];

/// Functions that return the function they are given, wrapped.
pub(super) const WRAPPERS: &[&str] = &[
    "Vectorize",
    "cmpfun",
    "memoise",
    "safely",
    "possibly",
    "quietly",
    "insistently",
    "slowly",
];

/// A function's name without its package (`base::system` is `system`,
/// `processx::process$new` is `process$new`).
pub(super) fn short(name: &str) -> &str {
    name.rsplit("::")
        .next()
        .unwrap_or(name)
        .trim_start_matches(':')
}
