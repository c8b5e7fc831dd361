#!/bin/sh
# Fails when an object of agent/signal/ calls something a signal handler may not: every symbol an object
# leaves undefined must be defined by an object of the folder or be on the allow-list (names separated by
# blanks, '#' starts a comment; a name ending in '*' allows every name it begins). Run by the build (CMakeLists.txt, target signal_symbols) over the folder's objects.
# Usage: check_symbols.sh NM ALLOWLIST STAMP OBJECT...
set -eu
nm=$1 allowlist=$2 stamp=$3
shift 3
allowed=$(sed 's/#.*//' "$allowlist" | tr -s ' \t' '\n' | grep -v '^$' | grep -v '\*$' | sort -u)
prefixes=$(sed 's/#.*//' "$allowlist" | tr -s ' \t' '\n' | grep '\*$' | sed 's/\*$//' | sort -u)
defined=$("$nm" --defined-only --extern-only "$@" | awk 'NF == 3 { print $3 }' | sort -u)
bad=0
for object in "$@"; do
    for symbol in $("$nm" -u "$object" | awk '{ print $NF }'); do
        prefixed=false
        for prefix in $prefixes; do
            case "$symbol" in "$prefix"*) prefixed=true ;; esac
        done
        if ! $prefixed && ! printf '%s\n' "$allowed" "$defined" | grep -qxF "$symbol"; then
            echo "agent/signal: $(basename "$object" .o) calls $symbol, which is neither in agent/signal/ nor on" \
                 "the allow-list of async-signal-safe functions (agent/signal/allowed_symbols.txt)" >&2
            bad=1
        fi
    done
done
[ "$bad" -eq 0 ] || exit 1
touch "$stamp"
