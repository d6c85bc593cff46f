//! What the R reader finds in code: each use as (act, text).

use super::*;

fn found(code: &str) -> Vec<(Act, String)> {
    reset(code.len());
    let mut out = Vec::new();
    let why = each_use(code, &mut |u| {
        out.push((u.act, u.text.clone()));
        None
    });
    assert_eq!(why, None, "{code}");
    out
}

fn runs(code: &str) -> Vec<String> {
    found(code)
        .into_iter()
        .filter(|(a, _)| matches!(a, Act::Runs | Act::Does))
        .map(|(_, t)| t)
        .collect()
}

#[test]
fn shell_commands_in_every_spelling() {
    for code in [
        r#"system("rm -rf /")"#,
        r#"base::system('rm -rf /', intern = TRUE)"#,
        r#"system(intern = TRUE, command = "rm -rf /")"#,
        r#"system(com = "rm -rf /")"#,
        "system (\n  r\"[rm -rf /]\"\n)",
        r#"`system`("rm -rf /")"#,
        r#""system"("rm -rf /")"#,
        r#"get("system")("rm -rf /")"#,
        r#"s <- base::system; s("rm -rf /")"#,
        r#"cmd <- "rm -rf /"; system(cmd)"#,
        r#""rm -rf /" -> cmd; system(cmd)"#,
        r#""rm -rf /" |> system()"#,
        r#""rm -rf /" %>% system"#,
        r#"system(paste("rm", "-rf", "/"))"#,
        r#"system(paste0("rm -rf ", "/"))"#,
        r#"system(sprintf("rm -rf %s", "/"))"#,
        r#"system(gsub("X", "", "rXm -rf /"))"#,
        r#"system("\x72m -rf /")"#,
        r#"do.call("system", list("rm -rf /"))"#,
        r#"do.call(system, list(command = "rm -rf /"))"#,
        r#"lapply("rm -rf /", system)"#,
        r#"f <- function(cmd = "rm -rf /") system(cmd)"#,
        r#"for (c in c("ls", "rm -rf /")) system(c)"#,
        r#"system(if (TRUE) "rm -rf /" else "ls")"#,
        r#"pipe("rm -rf /")"#,
        r#"shell("rm -rf /")"#,
        r#"data.table::fread(cmd = "rm -rf /")"#,
        r#"eval(parse(text = "system('rm -rf /')"))"#,
        r#"Rcpp::cppFunction('int f() { return system("rm -rf /"); }')"#,
        r#"run_it <- function(cmd, ...) { system(cmd) }; run_it("rm -rf /")"#,
        r#"(\(x) system(x))("ls"); g <- \(x) system(x); g(x = "rm -rf /")"#,
        r#"eval(call("system", "rm -rf /"))"#,
        r#"rlang::exec("system", command = "rm -rf /")"#,
        r#"Vectorize(system)("rm -rf /")"#,
        r#"{system}("rm -rf /")"#,
        r#"d <- "/"; system(glue::glue("rm -rf {d}"))"#,
        r#"system(stringr::str_c("rm -rf", "/", sep = " "))"#,
        r#"args <- list("rm -rf /"); do.call(system, args)"#,
        r#"x <- list(cmd = "rm -rf /"); system(x$cmd)"#,
        r#"x <- c("ls", "rm -rf /"); system(x[[2]])"#,
        r#"e <- new.env(); assign("k", "rm -rf /", envir = e); system(get("k", envir = e))"#,
        r#""rm -rf /" |> (\(x) system(x))()"#,
        r#"eval(as.call(list(as.name("system"), "rm -rf /")))"#,
        r#"system(glue::glue("rm -rf {'/'}"))"#,
    ] {
        let got = runs(code);
        assert!(got.iter().any(|t| t == "rm -rf /"), "{code}: {got:?}");
    }
}

#[test]
fn stdin_environment_and_listings_are_what_the_shell_would_get() {
    assert_eq!(
        runs(r#"system("sh", input = "rm -rf /")"#),
        ["printf '%s\\n' 'rm -rf /' | sh", "sh"]
    );
    assert_eq!(
        runs(r#"con <- pipe("bash", "w"); writeLines("rm -rf ~", con)"#),
        ["bash", "printf '%s\\n' 'rm -rf ~' | bash"]
    );
    assert_eq!(
        runs(r#"Sys.setenv(X = "/"); system("rm -rf $X")"#),
        ["X='/'; rm -rf $X"]
    );
    assert_eq!(
        runs(r#"unlink(list.files("/", full.names = TRUE), recursive = TRUE)"#),
        ["rm -rf -- '/*'"]
    );
    assert_eq!(
        runs(r#"unlink(list.files("/", pattern = "x"), TRUE)"#),
        Vec::<String>::new()
    );
    assert_eq!(
        runs("unlink(dirname(getwd()), recursive = TRUE)"),
        ["rm -rf -- '..'"]
    );
}

#[test]
fn argument_vectors_are_quoted_words() {
    assert_eq!(runs(r#"system2("rm", c("-rf", "/"))"#), ["'rm' -rf /"]);
    assert_eq!(
        runs(r#"system2(args = "-rf ~", command = "rm")"#),
        ["'rm' -rf ~"]
    );
    assert_eq!(
        runs(r#"system2("ls", stdout = "/dev/sda", env = "X=1")"#),
        ["X=1 'ls' > '/dev/sda'"]
    );
    assert_eq!(
        runs(r#"processx::run("rm", c("-rf", "/"))"#),
        ["'rm' '-rf' '/'"]
    );
    assert_eq!(
        runs(r#"p <- processx::process$new("bash", c("-c", "rm -rf ~"))"#),
        ["'bash' '-c' 'rm -rf ~'"]
    );
    assert_eq!(
        runs(r#"sys::exec_wait("rm", args = c("-rf", "/"))"#),
        ["'rm' '-rf' '/'"]
    );
}

#[test]
fn deletions_are_rm_of_their_paths() {
    assert_eq!(runs(r#"unlink("/", recursive = TRUE)"#), ["rm -rf -- '/'"]);
    assert_eq!(runs(r#"unlink("/", TRUE)"#), ["rm -rf -- '/'"]);
    assert_eq!(runs(r#"unlink("x", recursive = FALSE)"#), ["rm -f -- 'x'"]);
    assert_eq!(
        runs(r#"unlink(c("a", path.expand("~")), recursive = T)"#),
        ["rm -rf -- 'a'", "rm -rf -- '~'"]
    );
    assert_eq!(
        runs(r#"file.remove("a", "b")"#),
        ["rm -f -- 'a'", "rm -f -- 'b'"]
    );
    assert_eq!(
        runs(r#"fs::dir_delete(Sys.getenv("HOME"))"#),
        ["rm -rf -- '~'"]
    );
    assert_eq!(
        runs(r#"unlink(file.path(Sys.getenv("HOME"), ".ssh"), recursive = TRUE)"#),
        ["rm -rf -- '~/.ssh'"]
    );
    assert_eq!(runs("unlink(tempfile())"), Vec::<String>::new());
    assert_eq!(
        runs(r#"withr::with_dir("/", unlink("etc", recursive = TRUE))"#),
        ["cd '/' && rm -rf -- 'etc'"]
    );
    assert_eq!(
        runs(r#"setwd("/"); unlink("etc", recursive = TRUE)"#),
        ["cd '/' && rm -rf -- 'etc'"]
    );
}

#[test]
fn reads_and_writes_with_literal_paths() {
    let got = found(
        r#"x <- readLines("~/.ssh/id_rsa"); writeLines(x, "/etc/passwd")
           cat("a", file = "out.txt", append = TRUE); readr::read_csv(file = "d.csv")
           write.csv(d, "o.csv"); con <- file(".env", "w"); jsonlite::read_json(path = "j")"#,
    );
    let want = [
        (Act::Reads, "~/.ssh/id_rsa"),
        (Act::Writes, "/etc/passwd"),
        (Act::Writes, "out.txt"),
        (Act::Reads, "d.csv"),
        (Act::Writes, "o.csv"),
        (Act::Writes, ".env"),
        (Act::Reads, "j"),
    ];
    let want: Vec<(Act, String)> = want.iter().map(|(a, t)| (*a, (*t).to_owned())).collect();
    assert_eq!(got, want);
}

#[test]
fn data_and_comments_are_not_commands() {
    for code in [
        "# system(\"rm -rf /\")\nsummary(lm(y ~ x, d))",
        r#"x <- "rm -rf /"; print(x)"#,
        r#"msg <- paste0("run ", "rm -rf /", " to wipe")"#,
        r#"cat("system('rm -rf /')\n")"#,
    ] {
        assert_eq!(runs(code), Vec::<String>::new(), "{code}");
    }
}

#[test]
fn decoded_and_downloaded_code_is_marked() {
    let acts: Vec<Act> = found(r#"system(rawToChar(as.raw(c(114, 109))))"#)
        .into_iter()
        .map(|(a, _)| a)
        .collect();
    assert_eq!(acts, [Act::RunsDecoded]);
    let acts: Vec<Act> = found(r#"source("https://x.example/s.R")"#)
        .into_iter()
        .map(|(a, _)| a)
        .collect();
    assert_eq!(acts, [Act::RunsDownloaded]);
    for code in [
        r#"eval(parse("https://x/a.R"))"#,
        r#"eval(parse(url("https://x/a.R")))"#,
    ] {
        let acts: Vec<Act> = found(code).into_iter().map(|(a, _)| a).collect();
        assert_eq!(acts, [Act::RunsDownloaded], "{code}");
    }
}

#[test]
fn command_lines_of_rscript_and_r() {
    let w = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    assert_eq!(
        code_of(&w(&["--vanilla", "-e", "a()", "-e", "b()"])),
        Some("a()\nb()".into())
    );
    assert_eq!(code_of(&w(&["script.R", "-e", "x"])), None);
    assert_eq!(
        code_of(&w(&["--no-echo", "--eval=x()"])),
        Some("x()".into())
    );
}

#[test]
fn a_doubling_name_spends_the_budget_and_says_so() {
    let mut code = String::from("a0 <- \"xxxxxxxx\"\n");
    for i in 1..40 {
        code.push_str(&format!("a{i} <- paste0(a{}, a{})\n", i - 1, i - 1));
    }
    code.push_str("system(a39)");
    reset(code.len());
    let why = each_use(&code, &mut |_| None);
    assert!(why.is_some_and(|w| w.contains("more than")));
}
