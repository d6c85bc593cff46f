#!/usr/bin/env node
// Lays out the npm packages in a directory, ready for `npm pack` or
// `npm publish`; used by scripts/package and the release workflow.
//
//   node packaging/npm/stage.js main VERSION OUT
//       OUT/hookrun: the main package (the launcher bin/hookrun, its
//       lib/platform.js, and install.js, which puts the binary in the
//       launcher's place at install time), whose optional dependencies are
//       every platform package of platforms.json at exactly VERSION.
//   node packaging/npm/stage.js platform VERSION TARGET BINARY OUT
//       OUT/<os>-<cpu>[-musl]: @hookrun/<os>-<cpu>[-musl] holding BINARY
//       for the Rust target TARGET, with the os/cpu/libc fields that make
//       npm install it only where it runs.
//   node packaging/npm/stage.js name TARGET
//       prints the platform package's name for TARGET.
//
// The names follow the launcher's rule (lib/platform.js): @hookrun/ then
// Node's process.platform and process.arch, then -musl for musl builds.
"use strict";

const fs = require("fs");
const path = require("path");

const HERE = __dirname;
const ROOT = path.join(HERE, "..", "..");
const PLATFORMS = JSON.parse(fs.readFileSync(path.join(HERE, "platforms.json"), "utf8"));
const LICENSES = ["LICENSE-MIT", "LICENSE-APACHE"];

function packageName(target) {
  const p = PLATFORMS[target];
  if (!p) fail(`unknown target ${target}; known: ${Object.keys(PLATFORMS).join(", ")}`);
  return `@hookrun/${p.os}-${p.cpu}${p.libc === "musl" ? "-musl" : ""}`;
}

function fail(message) {
  process.stderr.write(`stage.js: ${message}\n`);
  process.exit(1);
}

function writeJson(file, value) {
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** A fresh directory for one package, with the licenses in it. */
function freshDir(out, leaf) {
  const dir = path.join(out, leaf);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, "bin"), { recursive: true });
  for (const file of LICENSES) fs.copyFileSync(path.join(ROOT, file), path.join(dir, file));
  return dir;
}

function stageMain(version, out) {
  const dir = freshDir(out, "hookrun");
  const manifest = JSON.parse(fs.readFileSync(path.join(HERE, "hookrun", "package.json"), "utf8"));
  manifest.version = version;
  manifest.files = [...manifest.files, ...LICENSES];
  manifest.optionalDependencies = {};
  for (const target of Object.keys(PLATFORMS)) manifest.optionalDependencies[packageName(target)] = version;
  writeJson(path.join(dir, "package.json"), manifest);
  fs.mkdirSync(path.join(dir, "lib"));
  for (const file of manifest.files.filter((f) => !LICENSES.includes(f))) {
    fs.copyFileSync(path.join(HERE, "hookrun", file), path.join(dir, file));
  }
  fs.chmodSync(path.join(dir, "bin", "hookrun"), 0o755);
  fs.copyFileSync(path.join(ROOT, "README.md"), path.join(dir, "README.md"));
  return dir;
}

function stagePlatform(version, target, binary, out) {
  const name = packageName(target);
  const p = PLATFORMS[target];
  const dir = freshDir(out, name.split("/")[1]);
  const main = JSON.parse(fs.readFileSync(path.join(HERE, "hookrun", "package.json"), "utf8"));
  const manifest = {
    name,
    version,
    description: `The hookrun binary for ${target}; install the hookrun package, which picks it.`,
    license: main.license,
    repository: main.repository,
    homepage: main.homepage,
    os: [p.os],
    cpu: [p.cpu],
    ...(p.libc ? { libc: [p.libc] } : {}),
    files: ["bin/hookrun", ...LICENSES],
    preferUnplugged: true,
  };
  writeJson(path.join(dir, "package.json"), manifest);
  fs.writeFileSync(
    path.join(dir, "README.md"),
    `# ${name}\n\nThe \`hookrun\` binary for \`${target}\`. Install [hookrun](https://www.npmjs.com/package/hookrun) instead: it depends on this package and runs the binary.\n`,
  );
  fs.copyFileSync(binary, path.join(dir, "bin", "hookrun"));
  fs.chmodSync(path.join(dir, "bin", "hookrun"), 0o755);
  return dir;
}

const [command, ...args] = process.argv.slice(2);
if (command === "main" && args.length === 2) {
  console.log(stageMain(args[0], args[1]));
} else if (command === "platform" && args.length === 4) {
  console.log(stagePlatform(args[0], args[1], args[2], args[3]));
} else if (command === "name" && args.length === 1) {
  console.log(packageName(args[0]));
} else {
  fail("usage: stage.js main VERSION OUT | platform VERSION TARGET BINARY OUT | name TARGET");
}
