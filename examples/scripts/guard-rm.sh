#!/bin/sh
# Denies `rm -rf /` and friends: exit 2 blocks, and stderr is the reason.
input=$(cat)
case "$input" in
  *'"command":"rm -rf /'*|*'"command":"rm -rf ~'*)
    echo "refusing to delete a root or home directory" >&2
    exit 2 ;;
esac
exit 0
