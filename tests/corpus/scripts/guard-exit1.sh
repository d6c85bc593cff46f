#!/bin/sh
if grep -q "rm -rf"; then
  echo "dangerous" >&2
  exit 1
fi
