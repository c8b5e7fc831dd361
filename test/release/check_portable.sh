#!/usr/bin/env bash
# Checks that shipped binaries run where glibc 2.17 does (on x86-64, and on aarch64, whose first glibc it is):
# every ELF file in the given files, directories, tarballs and jars (the native libraries inside libprof.jar
# too) may need only libc, libm, libdl, libpthread, librt and the loader, and no symbol version newer than
# GLIBC_2.17 (objdump -T, objdump -p).
# Prints one line per binary and every offence; exit 1 when there is one, 2 when there is nothing to check.
#   check_portable.sh <file|dir|.tar.gz|.jar>...
set -euo pipefail
MAX_MAJOR=2 MAX_MINOR=17
ALLOWED_NEEDED='^(libc\.so\.6|libm\.so\.6|libdl\.so\.2|libpthread\.so\.0|librt\.so\.1|ld-linux-x86-64\.so\.2|ld-linux-aarch64\.so\.1)$'
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

unpack() {   # <path>: prints the files to look at
  local p=$1 d
  case "$p" in
    *.tar.gz|*.tgz) d=$(mktemp -d "$scratch/t.XXXXXX"); tar -xzf "$p" -C "$d"; unpack "$d" ;;
    *.jar) d=$(mktemp -d "$scratch/j.XXXXXX"); unzip -q "$p" -d "$d"; unpack "$d" ;;
    *) if [ -d "$p" ]; then
         find "$p" -type f | sort | while read -r f; do unpack "$f"; done
       else
         echo "$p"
       fi ;;
  esac
}

is_elf() { [ "$(head -c 4 "$1" | od -An -tx1 | tr -d ' \n')" = 7f454c46 ]; }

[ $# -gt 0 ] || { echo "usage: check_portable.sh <file|dir|.tar.gz|.jar>..." >&2; exit 2; }
bad=0 checked=0
while read -r f; do
  is_elf "$f" || continue
  checked=$((checked + 1))
  name=${f#"$scratch"/*/}
  needed=$(objdump -p "$f" | awk '$1 == "NEEDED" { print $2 }')
  newest=$(objdump -T "$f" | grep -oE '\(?GLIBC_[0-9]+\.[0-9]+(\.[0-9]+)?' | tr -d '(' | sort -u -V | tail -n 1)
  echo "$name: needs ${needed//$'\n'/ }; newest glibc symbol ${newest:-none}"
  for lib in $needed; do
    [[ "$lib" =~ $ALLOWED_NEEDED ]] || { echo "  FAIL $name needs $lib (only libc, libm, libdl, libpthread, librt)"; bad=1; }
  done
  while read -r sym ver; do
    [ -n "$ver" ] || continue
    IFS=. read -r major minor _ <<<"${ver#GLIBC_}"
    if [ "$major" -gt $MAX_MAJOR ] || { [ "$major" -eq $MAX_MAJOR ] && [ "$minor" -gt $MAX_MINOR ]; }; then
      echo "  FAIL $name: $sym@$ver is newer than GLIBC_$MAX_MAJOR.$MAX_MINOR"; bad=1
    fi
  done < <(objdump -T "$f" | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^\(?GLIBC_[0-9]/) { v = $i; gsub(/[()]/, "", v); print $NF, v } }')
  if objdump -T "$f" | grep -qE 'GLIBCXX_|CXXABI_'; then
    echo "  FAIL $name: has libstdc++ symbols (GLIBCXX_/CXXABI_)"; bad=1
  fi
done < <(for p in "$@"; do unpack "$p"; done)
[ $checked -gt 0 ] || { echo "check_portable.sh: no ELF file in $*" >&2; exit 2; }
[ $bad -eq 0 ] && echo "portable: $checked binaries need nothing newer than GLIBC_$MAX_MAJOR.$MAX_MINOR and no libstdc++" ||
  echo "NOT portable (see FAIL lines)"
exit $bad
