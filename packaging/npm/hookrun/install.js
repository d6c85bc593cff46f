#!/usr/bin/env node
// The package's postinstall script: replaces the Node launcher bin/hookrun
// (the file npm's `hookrun` link points at) with this platform's hookrun
// binary, from the platform package npm installed beside this one, so
// that running `hookrun` starts no Node at all. esbuild's installer does
// the same with its own shim.
//
// Nothing is downloaded. The binary is found as the launcher finds it
// (lib/platform.js), must print this package's version, and is put in
// place as a hard link (a copy across file systems), mode 0755, renamed
// over the launcher in one step; only under npm (see reasonToKeep). When
// anything is missing or fails, the launcher stays, which runs the same
// binary through Node: the script says why in one line and still exits 0,
// since the install works either way.
"use strict";

const { execFileSync } = require("child_process");
const fs = require("fs");
const path = require("path");
const { candidates, installedBinary } = require("./lib/platform.js");

const LAUNCHER = path.join(__dirname, "bin", "hookrun");
const VERSION = JSON.parse(fs.readFileSync(path.join(__dirname, "package.json"), "utf8")).version;
const KEPT = "kept the Node launcher as bin/hookrun (hookrun works; each run starts Node first)";

function say(line) {
  process.stderr.write(`hookrun: ${line}\n`);
}

/** The first bytes of bin/hookrun. */
function head() {
  const bytes = Buffer.alloc(2);
  const fd = fs.openSync(LAUNCHER, "r");
  try {
    fs.readSync(fd, bytes, 0, 2, 0);
  } finally {
    fs.closeSync(fd);
  }
  return bytes.toString("latin1");
}

/**
 * Why the launcher must stay, or null when it can be replaced: only npm,
 * whose bin links are symlinks to this file, runs it as it is. pnpm writes
 * shell shims that run `node` on it (decided from its first line when it
 * links, possibly before this script runs) and Yarn runs bins with Node
 * too: a binary there would be fed to Node.
 */
function reasonToKeep() {
  const agent = (process.env.npm_config_user_agent || "").split(" ")[0];
  if (!agent.startsWith("npm/")) {
    return `installed by ${agent || "an unknown package manager"}, which may run bin files with Node`;
  }
  return null;
}

function replace() {
  if (head() !== "#!") return say("bin/hookrun is already the native binary: left as it is");
  const keep = reasonToKeep();
  if (keep) return say(`${KEPT}: ${keep}`);
  const binary = installedBinary();
  if (!binary) {
    return say(`${KEPT}: none of ${candidates().join(", ")} is installed (--omit=optional, or no package for this platform)`);
  }
  const version = execFileSync(binary, ["--version"], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 10000,
  }).trim();
  if (version !== `hookrun ${VERSION}`) {
    return say(`${KEPT}: ${binary} --version printed "${version}", not "hookrun ${VERSION}"`);
  }
  const temporary = path.join(__dirname, "bin", `.hookrun-${process.pid}`);
  let how = "hard link";
  try {
    try {
      fs.linkSync(binary, temporary);
    } catch (_) {
      how = "copy";
      fs.copyFileSync(binary, temporary);
    }
    fs.chmodSync(temporary, 0o755);
    fs.renameSync(temporary, LAUNCHER);
  } finally {
    fs.rmSync(temporary, { force: true });
  }
  say(`bin/hookrun is now the native binary (a ${how} of ${binary}): running hookrun starts no Node`);
}

try {
  replace();
} catch (err) {
  say(`${KEPT}: ${String((err && err.message) || err).split("\n")[0]}`);
}
process.exit(0);
