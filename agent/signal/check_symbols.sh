#!/bin/sh
# Fails when an object of agent/signal/ calls something a signal handler may not: every symbol an object
# leaves undefined must be defined by an object of the folder or be on the allow-list (one name a line,
# '#' starts a comment). Run by the build (CMakeLists.txt, target signal_symbols) over the folder's objects.
# Usage: check_symbols.sh NM ALLOWLIST STAMP OBJECT...
set -eu
nm=$1 allowlist=$2 stamp=$3
shift 3
allowed=$(sed 's/#.*//' "$allowlist" | tr -s ' \t' '\n' | grep -v '^$' | sort -u)
defined=$("$nm" --defined-only --extern-only "$@" | awk 'NF == 3 { print $3 }' | sort -u)
bad=0
for object in "$@"; do
    for symbol in $("$nm" -u "$object" | awk '{ print $NF }'); do
        if ! printf '%s\n' "$allowed" "$defined" | grep -qxF "$symbol"; then
            echo "agent/signal: $(basename "$object" .o) calls $symbol, which is neither in agent/signal/ nor on" \
                 "the allow-list of async-signal-safe functions (agent/signal/allowed_symbols.txt)" >&2
            bad=1
        fi
    done
done
[ "$bad" -eq 0 ] || exit 1
touch "$stamp"
