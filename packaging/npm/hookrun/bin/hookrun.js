#!/usr/bin/env node
// The `hookrun` command of the npm package: finds the binary that npm
// installed from this platform's optional dependency (@hookrun/<os>-<cpu>,
// `-musl` on musl Linux) and runs it with the same arguments, stdin, stdout
// and stderr, then leaves with its exit code or dies by its signal.
//
// It runs once per hook event, so it does as little as it can: no
// dependencies, a few stat calls, one spawn. Signals sent to this process
// (an agent ending a hook that timed out) are passed on to hookrun, which
// then kills its own hooks: nothing is left running. Measured cost:
// docs/packaging.md.
"use strict";

const { spawn } = require("child_process");
const fs = require("fs");
const os = require("os");

// Where each Linux C library keeps its loader: a glibc binary cannot start
// without it, while the musl build is static and starts anywhere.
const GLIBC_LOADER = { x64: "/lib64/ld-linux-x86-64.so.2", arm64: "/lib/ld-linux-aarch64.so.1" };

/** The platform packages that can serve this machine, best first. */
function candidates() {
  const base = `@hookrun/${process.platform}-${process.arch}`;
  if (process.platform !== "linux") return [base];
  const loader = GLIBC_LOADER[process.arch];
  return loader && fs.existsSync(loader) ? [base, `${base}-musl`] : [`${base}-musl`];
}

/** The installed binary's path, or an error naming the missing package. */
function findBinary() {
  const override = process.env.HOOKRUN_BINARY;
  if (override) return override;
  const names = candidates();
  for (const name of names) {
    try {
      return require.resolve(`${name}/bin/hookrun`);
    } catch (_) {
      // not installed: try the next one
    }
  }
  process.stderr.write(
    `hookrun: the package ${names[0]} is not installed, and it holds the hookrun binary for ` +
      `this platform (${process.platform} ${process.arch}).\n` +
      "It is an optional dependency of hookrun: reinstall hookrun without --omit=optional or " +
      `--no-optional, or install ${names[0]} next to it. Other ways to install: ` +
      "pipx install hookrun, cargo binstall hookrun.\n",
  );
  process.exit(1);
}

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR2", "SIGALRM"];

const child = spawn(findBinary(), process.argv.slice(2), { stdio: "inherit" });
const forward = (signal) => child.kill(signal);
for (const signal of SIGNALS) process.on(signal, forward);

child.on("error", (err) => {
  process.stderr.write(`hookrun: cannot run ${child.spawnfile}: ${err.message}\n`);
  process.exit(1);
});
child.on("exit", (code, signal) => {
  for (const s of SIGNALS) process.off(s, forward);
  if (signal) {
    // Die by the same signal, so the caller sees what hookrun did; the
    // shell's 128 + N where the signal is one Node ignores (SIGPIPE).
    process.kill(process.pid, signal);
    process.exit(128 + (os.constants.signals[signal] || 0));
  }
  process.exit(code);
});
