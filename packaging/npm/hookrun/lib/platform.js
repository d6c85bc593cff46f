// Which platform package holds this machine's hookrun binary, and where
// it is installed: the one rule that the launcher (bin/hookrun, on every
// run) and the install script (install.js, once) both follow.
"use strict";

const fs = require("fs");

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

/**
 * The installed binary of the first candidate that npm installed, found
 * with `require.resolve` (so local, global and npx installs all work), or
 * null when none is.
 */
function installedBinary() {
  for (const name of candidates()) {
    try {
      return require.resolve(`${name}/bin/hookrun`);
    } catch (_) {
      // not installed: try the next one
    }
  }
  return null;
}

module.exports = { candidates, installedBinary };
