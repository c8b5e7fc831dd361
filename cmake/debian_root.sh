#!/usr/bin/env bash
# Debian roots for the portable build and for running the release where users run it, made with debootstrap
# and kept: a root is made once and reused while its suite and package list stay the same.
#
#   debian_root.sh make <dir> <suite> <package...>   make <dir> (minbase + the packages) unless it is current
#   debian_root.sh make-foreign <dir> <arch> <suite> <package...>
#                                                  make <dir> for another processor (arm64): the packages are
#                                                  downloaded and unpacked, none of their scripts run, so no
#                                                  emulator is needed to make it; programs in it run under
#                                                  qemu-user (qemu-aarch64-static -L <dir>)
#   debian_root.sh run <dir> [--bind <path>]... <command...>
#                                                  run a command as root inside <dir>, with /proc, /dev and /tmp
#                                                  of this machine (and every --bind path, at the same place)
#                                                  mounted in a private mount namespace that ends with it
#
# The mirror is the one this machine's apt uses (LIBPROF_DEBIAN_MIRROR overrides it); downloaded packages are
# kept in <dir>/../debs so that roots of one suite share them. Needs root, debootstrap and unshare.
set -euo pipefail

mirror() {   # the Debian mirror of this machine's apt sources, else deb.debian.org
  if [ -n "${LIBPROF_DEBIAN_MIRROR:-}" ]; then echo "$LIBPROF_DEBIAN_MIRROR"; return; fi
  local m
  m=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list 2>/dev/null |
      grep -v '^[[:space:]]*#' | grep -oE 'https?://[^ ]+/debian/?( |$)' | head -n 1 | tr -d ' ') || true
  echo "${m:-http://deb.debian.org/debian}"
}

# Runs <command> inside <dir> with the host's /proc, /dev, /tmp and the --bind paths mounted; the mounts live
# in a mount namespace of their own, so nothing stays mounted after the command, whatever happens to it.
run_in() {
  local dir=$1; shift
  local binds=()
  while [ "${1:-}" = --bind ]; do binds+=("$2"); shift 2; done
  # shellcheck disable=SC2016
  unshare --mount --propagation private -- bash -c '
    set -e
    dir=$1; shift
    n=$1; shift
    mount --rbind /dev "$dir/dev"
    mount -t proc proc "$dir/proc"
    mount --bind /tmp "$dir/tmp"
    for ((i = 0; i < n; i++)); do
      mkdir -p "$dir$1"
      mount --bind "$1" "$dir$1"
      shift
    done
    exec chroot "$dir" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
      HOME=/root LANG=C.UTF-8 TMPDIR=/tmp "$@"' run_in "$dir" "${#binds[@]}" "${binds[@]}" "$@"
}

# A package written <name>/<other suite> comes from that suite (pinned low, so that nothing else does): the
# build root takes newer kernel headers (linux-libc-dev, constants and structures only) that way.
make_root() {
  local dir=$1 suite=$2; shift 2
  local want="$suite $*"
  if [ -f "$dir/.libprof-root" ] && [ "$(cat "$dir/.libprof-root")" = "$want" ]; then
    return 0
  fi
  command -v debootstrap >/dev/null || { echo "debian_root.sh: debootstrap is missing (apt-get install debootstrap)" >&2; exit 1; }
  [ "$(id -u)" -eq 0 ] || { echo "debian_root.sh: making a root needs root" >&2; exit 1; }
  local start=$SECONDS m debs
  m=$(mirror)
  debs="$(realpath -m "$(dirname "$dir")/debs/$suite")"
  mkdir -p "$debs/partial"
  # A root of the same suite is completed with the packages it lacks; anything else is made anew.
  if [ "$(cat "$dir/.libprof-base" 2>/dev/null)" != "$suite" ]; then
    echo "debian_root.sh: making $dir ($suite from $m: minbase + $*)" >&2
    rm -rf "$dir"
    debootstrap --variant=minbase --cache-dir="$debs" "$suite" "$dir" "$m" >"$dir.log" 2>&1 ||
      { echo "debian_root.sh: debootstrap failed, see $dir.log" >&2; tail -n 5 "$dir.log" >&2; exit 1; }
    # No daemon starts inside the root; no documentation is unpacked into it.
    printf '#!/bin/sh\nexit 101\n' >"$dir/usr/sbin/policy-rc.d"; chmod +x "$dir/usr/sbin/policy-rc.d"
    printf 'path-exclude /usr/share/doc/*\npath-exclude /usr/share/man/*\npath-exclude /usr/share/locale/*\n' \
      >"$dir/etc/dpkg/dpkg.cfg.d/01-nodoc"
    echo "$suite" >"$dir/.libprof-base"
  else
    echo "debian_root.sh: completing $dir with $*" >&2
  fi
  local security=${m%/debian*}/debian-security other
  {
    echo "deb $m $suite main"
    echo "deb $m $suite-updates main"
    echo "deb $security $suite-security main"
  } >"$dir/etc/apt/sources.list"
  : >"$dir/etc/apt/preferences.d/libprof"
  for other in $(printf '%s\n' "$@" | sed -n 's|^[^/]*/||p' | sort -u); do
    echo "deb $m $other main" >>"$dir/etc/apt/sources.list"
    printf 'Package: *\nPin: release n=%s\nPin-Priority: 100\n\n' "$other" >>"$dir/etc/apt/preferences.d/libprof"
  done
  run_in "$dir" --bind "$debs" sh -c "
    set -e
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends -o Dir::Cache::archives=$debs $* >/dev/null" >>"$dir.log" 2>&1 ||
    { echo "debian_root.sh: installing $* into $dir failed, see $dir.log" >&2; tail -n 5 "$dir.log" >&2; exit 1; }
  echo "$want" >"$dir/.libprof-root"
  echo "debian_root.sh: $dir ready in $((SECONDS - start)) s" >&2
}

# A root for another processor: debootstrap's first stage downloads the packages and unpacks the essential
# ones (--foreign); every other downloaded package is unpacked with dpkg-deb, no maintainer script runs (the
# second stage would need the emulator registered with binfmt_misc). What a program needs of those scripts
# (alternatives, generated caches) it does without: the JDK is called by its path under /usr/lib/jvm.
make_foreign_root() {
  local dir=$1 arch=$2 suite=$3; shift 3
  local want="$arch $suite $* (relative links)"
  if [ -f "$dir/.libprof-root" ] && [ "$(cat "$dir/.libprof-root")" = "$want" ]; then
    return 0
  fi
  # One maker at a time (./build.sh test starts one beside the suite, whose first arm64 test waits for it).
  mkdir -p "$(dirname "$dir")"
  exec 9>"$dir.lock"
  flock 9
  if [ -f "$dir/.libprof-root" ] && [ "$(cat "$dir/.libprof-root")" = "$want" ]; then
    return 0
  fi
  command -v debootstrap >/dev/null || { echo "debian_root.sh: debootstrap is missing (apt-get install debootstrap)" >&2; exit 1; }
  [ "$(id -u)" -eq 0 ] || { echo "debian_root.sh: making a root needs root" >&2; exit 1; }
  local start=$SECONDS m debs include
  m=$(mirror)
  debs="$(realpath -m "$(dirname "$dir")/debs/$suite-$arch")"
  mkdir -p "$debs/partial"
  include=$(echo "$*" | tr ' ' ,)
  echo "debian_root.sh: making $dir ($arch $suite from $m: minbase + $*, unpacked)" >&2
  rm -rf "$dir"
  debootstrap --foreign --arch="$arch" --variant=minbase --cache-dir="$debs" ${include:+--include="$include"} \
    "$suite" "$dir" "$m" >"$dir.log" 2>&1 ||
    { echo "debian_root.sh: debootstrap failed, see $dir.log" >&2; tail -n 5 "$dir.log" >&2; exit 1; }
  local deb
  for deb in "$dir"/var/cache/apt/archives/*.deb; do
    dpkg-deb -x "$deb" "$dir" >>"$dir.log" 2>&1 ||
      { echo "debian_root.sh: unpacking $deb failed, see $dir.log" >&2; exit 1; }
  done
  rm -f "$dir"/var/cache/apt/archives/*.deb
  # Absolute links (libdl.so -> /lib/aarch64-linux-gnu/libdl.so.2) would lead out of the root, to this
  # machine's own files, wherever it is used by path (a cross compiler's sysroot, qemu -L): made relative.
  local link target
  while IFS= read -r -d '' link; do
    target=$(readlink "$link")
    ln -sfn "$(realpath -m --relative-to="$(dirname "$link")" "$dir$target")" "$link"
  done < <(find "$dir" -type l -lname '/*' -print0)
  echo "$want" >"$dir/.libprof-root"
  echo "debian_root.sh: $dir ready in $((SECONDS - start)) s" >&2
}

case "${1:-}" in
  make-foreign) shift; [ $# -ge 3 ] || { echo "usage: debian_root.sh make-foreign <dir> <arch> <suite> <package...>" >&2; exit 2; }
        make_foreign_root "$@" ;;
  make) shift; [ $# -ge 2 ] || { echo "usage: debian_root.sh make <dir> <suite> <package...>" >&2; exit 2; }
        make_root "$@" ;;
  run)  shift; [ $# -ge 2 ] || { echo "usage: debian_root.sh run <dir> [--bind <path>]... <command...>" >&2; exit 2; }
        run_in "$@" ;;
  *)    echo "usage: debian_root.sh make <dir> <suite> <package...> | run <dir> [--bind <path>]... <command...>" >&2
        exit 2 ;;
esac
