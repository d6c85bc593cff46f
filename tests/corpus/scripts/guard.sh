#!/bin/sh
# Blocks dangerous commands.
case "$(cat)" in *"rm -rf"*) echo "no" >&2; exit 2;; esac
exit 0
