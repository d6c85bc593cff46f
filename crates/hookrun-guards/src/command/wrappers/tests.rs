use super::*;

fn runs(line: &str) -> Runs {
    let words: Vec<String> = line.split_whitespace().map(str::to_owned).collect();
    unwrap_fed(&words).0
}

fn argv(line: &str) -> Runs {
    Runs::Argv(line.split_whitespace().map(str::to_owned).collect())
}

#[test]
fn options_with_values_are_skipped() {
    assert_eq!(runs("sudo -u root -g wheel rm -rf /"), argv("rm -rf /"));
    assert_eq!(runs("sudo --user=root -- rm x"), argv("rm x"));
    assert_eq!(runs("sudo --us root rm x"), argv("rm x"));
    assert_eq!(runs("env -i -u HOME -- A=1 rm x"), argv("rm x"));
    assert_eq!(runs("timeout -s KILL 10 rm x"), argv("rm x"));
    assert_eq!(runs("env -P /usr/bin - rm x"), argv("rm x"));
    assert_eq!(runs("env -P/usr/bin -C/tmp rm x"), argv("rm x"));
    assert_eq!(runs("stdbuf -oL -e 0 rm x"), argv("rm x"));
    assert_eq!(runs("nice -n 5 ionice -c 3 rm x"), argv("rm x"));
    assert_eq!(runs("chroot --userspec=a:b /mnt rm x"), argv("rm x"));
    assert_eq!(
        runs("/usr/bin/sudo env X=1 nohup time -p rm x"),
        argv("rm x")
    );
}

#[test]
fn shell_strings_are_scripts() {
    assert_eq!(runs("sudo -s rm -rf /"), Runs::Script("rm -rf /".into()));
    assert_eq!(runs("su -c ls root"), Runs::Script("ls".into()));
    assert_eq!(runs("su - root -c ls"), Runs::Script("ls".into()));
    assert_eq!(runs("flock /tmp/l -c ls"), Runs::Script("ls".into()));
    assert_eq!(runs("ssh -p 22 host rm x"), Runs::Script("rm x".into()));
    assert_eq!(runs("watch -n 1 ls -l"), Runs::Script("ls -l".into()));
    assert_eq!(runs("env -S ls x"), Runs::Script("ls x".into()));
    assert_eq!(runs("su"), argv("sh"));
}

#[test]
fn lookups_and_non_runners_run_nothing() {
    assert_eq!(runs("command -v rm"), argv(""));
    assert_eq!(runs("sudo -l rm"), argv(""));
    assert_eq!(runs("script out.txt"), argv(""));
    assert_eq!(runs("sudoedit /etc/hosts"), argv("sudoedit /etc/hosts"));
}

#[test]
fn parallel_arguments_after_triple_colon_are_arguments() {
    assert_eq!(runs("parallel rm -rf ::: /"), argv("rm -rf /"));
    assert_eq!(runs("parallel rm {} -rf ::: /"), argv("rm / -rf"));
    assert_eq!(runs("parallel ::: ls"), Runs::Script("ls".into()));
    let words: Vec<String> = ["xargs", "-0", "rm"].map(String::from).to_vec();
    assert_eq!(unwrap_fed(&words), (argv("rm"), true));
}
