//! `disk-tools`: partition, signature, encryption and volume tools whose
//! writes erase a disk. Their reading uses (`fdisk -l`, `sfdisk --dump`,
//! `parted DEV print`, `wipefs` without `-a`, `lvs`) stay allowed.

use crate::command::argv::{self, GNU, Spec, Takes};
use crate::dangerous::categories::command::Command;

pub(crate) fn check(cmd: &Command<'_>) -> Option<String> {
    let (prog, args) = (cmd.prog, cmd.args);
    if args.iter().any(|a| a == "--help" || a == "--version") {
        return None;
    }
    let erases = match prog {
        "wipefs" => wipefs(args),
        "sgdisk" => sgdisk(args),
        "blkdiscard" | "lvremove" | "vgremove" | "pvremove" => has_operand(args),
        "fdisk" | "cfdisk" => has_device(args) && !reads_only(args, &["-l", "--list", "-x"]),
        "sfdisk" => {
            has_device(args)
                && !reads_only(
                    args,
                    &[
                        "-l",
                        "--list",
                        "-d",
                        "--dump",
                        "-J",
                        "--json",
                        "-s",
                        "--show-size",
                        "-V",
                        "--verify",
                        "-F",
                        "--list-free",
                        "-g",
                        "--show-geometry",
                        "--backup-pt-sectors",
                    ],
                )
        }
        "parted" => parted(args),
        "hdparm" => args.iter().any(|a| {
            a.starts_with("--security-erase")
                || a.starts_with("--trim-sector")
                || a == "--write-sector"
                || a == "--make-bad-sector"
                || a.starts_with("--fwdownload")
                || a == "--dco-restore"
        }),
        "cryptsetup" => args.iter().any(|a| {
            matches!(
                a.as_str(),
                "luksFormat"
                    | "erase"
                    | "luksErase"
                    | "luksKillSlot"
                    | "luksRemoveKey"
                    | "reencrypt"
            )
        }),
        "zpool" => matches!(first_operand(args), Some("destroy" | "labelclear")),
        "zfs" => matches!(first_operand(args), Some("destroy")),
        "mdadm" => args.iter().any(|a| a == "--zero-superblock"),
        "dmsetup" => matches!(first_operand(args), Some("remove_all" | "wipe_table")),
        _ => false,
    };
    erases.then(|| format!("`{prog}` erases disk contents or their layout"))
}

/// `wipefs -a` or `-o OFFSET` erases signatures; plain `wipefs` lists them.
fn wipefs(args: &[String]) -> bool {
    let spec = Spec {
        short_value: "otpO",
        long: &[
            ("all", Takes::Nothing),
            ("offset", Takes::Value),
            ("no-act", Takes::Nothing),
            ("types", Takes::Value),
        ],
        ..GNU
    };
    let p = argv::parse(&spec, args);
    (p.has('a', "all") || p.has('o', "offset")) && !p.has('n', "no-act")
}

fn first_operand(args: &[String]) -> Option<&str> {
    args.iter()
        .map(String::as_str)
        .find(|a| !a.starts_with('-'))
}

fn has_operand(args: &[String]) -> bool {
    first_operand(args).is_some()
}

fn has_device(args: &[String]) -> bool {
    args.iter().any(|a| a.starts_with("/dev/"))
}

fn reads_only(args: &[String], reading: &[&str]) -> bool {
    args.iter().any(|a| reading.contains(&a.as_str()))
}

const SGDISK: Spec = Spec {
    short_value: "aAbcdhilmnrRtuU",
    long: &[
        ("zap-all", Takes::Nothing),
        ("zap", Takes::Nothing),
        ("clear", Takes::Nothing),
        ("delete", Takes::Value),
        ("mbrtogpt", Takes::Nothing),
        ("load-backup", Takes::Value),
    ],
    ..GNU
};

/// `sgdisk -Z`, `-z`, `-o`, `-d N`, `-l backup`: destroys or replaces the
/// partition table. Short value flags are listed so `-d1` is read right.
fn sgdisk(args: &[String]) -> bool {
    let p = argv::parse(&SGDISK, args);
    ["zap-all", "zap", "clear", "delete", "load-backup"]
        .iter()
        .any(|l| p.long(l))
        || ['Z', 'z', 'o', 'd', 'l'].iter().any(|c| p.has(*c, ""))
}

/// `parted [options] DEV COMMAND…` with a command that writes the table.
fn parted(args: &[String]) -> bool {
    args.iter().any(|a| {
        matches!(
            a.as_str(),
            "mklabel"
                | "mktable"
                | "rm"
                | "mkpart"
                | "mkpartfs"
                | "resizepart"
                | "resize"
                | "rescue"
        )
    })
}
