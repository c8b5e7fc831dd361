#!/bin/sh
# Checks agent/'s layer order from the linker's view: an object may use (leave undefined a symbol defined
# by) objects of its own folder or of folders lower in the order, never of a folder above it; and no
# dependency cycle among objects may hold more than MAX_CYCLE files. The order is CMakeLists.txt's
# CORE_FOLDERS then AGENT_FOLDERS; agent/'s top level (the entry points) comes last.
# Usage: check_layers.sh <nm> <stamp> "<folder> ..." <object>...
set -eu
nm=$1 stamp=$2 order=$3
shift 3
MAX_CYCLE=3
list=$(mktemp)
trap 'rm -f "$list"' EXIT
for obj in "$@"; do
  # CMakeFiles/<target>.dir/agent/<folder>/<name>.c.o -> agent/<folder>/<name>.c; generated code is a leaf.
  src=${obj#*.dir/}
  src=${src%.o}
  "$nm" "$obj" | awk -v src="$src" '
    $1 == "U" && NF == 2 { print "U", src, $2; next }
    NF == 3 && $2 ~ /^[TDBRCVWG]$/ { print "D", src, $3 }'
done > "$list"
awk -v order="$order" -v max_cycle="$MAX_CYCLE" '
  function folder(src,   f) { f = src; sub(/^agent\//, "", f); if (f !~ /\//) return "."; sub(/\/[^\/]*$/, "", f); return f }
  function rank(src,   f) { f = folder(src); return (f in level) ? level[f] : -1 }
  function visit(v,   i, w) {
    index_of[v] = low[v] = ++counter; stack[++top] = v; on_stack[v] = 1
    for (i = 1; i <= out_count[v]; i++) {
      w = out[v, i]
      if (!(w in index_of)) { visit(w); if (low[w] < low[v]) low[v] = low[w] }
      else if (on_stack[w] && index_of[w] < low[v]) low[v] = index_of[w]
    }
    if (low[v] == index_of[v]) {
      members = ""; size = 0
      do { w = stack[top--]; on_stack[w] = 0; members = members " " w; size++ } while (w != v)
      if (size > max_cycle) { printf "layers: a dependency cycle of %d files (at most %d):%s\n", size, max_cycle, members; bad = 1 }
    }
  }
  BEGIN { n = split(order, names, " "); for (i = 1; i <= n; i++) level[names[i]] = i; level["."] = n + 1 }
  $1 == "D" { owner[$3] = $2; next }
  { uses[++count] = $2 SUBSEP $3 }
  END {
    for (i = 1; i <= count; i++) {
      split(uses[i], p, SUBSEP); user = p[1]; def = owner[p[2]]
      if (def == "" || def == user || def ~ /^generated\// || user ~ /^generated\//) continue
      if (!((user, def) in edge)) { edge[user, def] = 1; out[user, ++out_count[user]] = def; nodes[user] = nodes[def] = 1 }
      if (rank(user) < 0 || rank(def) < 0) {
        stray = rank(user) < 0 ? user : def
        if (!(stray in told)) { printf "layers: %s is in no folder of the layer order (%s)\n", stray, order; told[stray] = 1 }
        bad = 1
        continue
      }
      if (rank(def) > rank(user)) {
        printf "layers: %s uses %s of %s: %s/ is above %s/ in the layer order (%s)\n", user, p[2], def, folder(def), folder(user), order
        bad = 1
      }
    }
    for (v in nodes) if (!(v in index_of)) visit(v)
    exit bad
  }' "$list"
touch "$stamp"
