#!/bin/sh
# A Stop hook for scripts/deputy-e2e: blocks the first stop it sees, with a
# reason, and allows every later one. $1 is its state file: "blocked", then
# one "allowed" line per later stop. The event on stdin is kept beside it.
state="${1:?stop-once.sh: the state file is required}"
cat >"$state.event.json"
if [ -e "$state" ]; then
  echo allowed >>"$state"
  exit 0
fi
echo blocked >"$state"
printf '%s\n' '{"decision":"block","reason":"Add a Sources: line listing what you read."}'
