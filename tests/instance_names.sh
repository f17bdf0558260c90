#!/bin/sh
# tests/instance_names.sh SRC [LIB...] - the precision instances can be found
# by grep (docs/ARCHITECTURE.md, "One way to instantiate"):
#  1. every unit that includes a template file (*_t.h) with DG_SN(x) set to
#     x##_d or x##_f writes, as it is spelled, each name that template defines
#     at file scope (dg_mg_cycle_d), in its "defines" comment;
#  2. every exported symbol ending in _d or _f of the libraries LIB (nm) is
#     written as it is spelled in the source file of the object defining it;
#  3. where Universal Ctags is installed, scripts/tags.sh indexes all of
#     these names (an editor jumps from dg_mg_cycle_d to its body).
# A template whose names are hidden from grep fails here.
set -eu
src=$1
shift
cd "$src"
dirs="core backends solvers implicit stencils models quadrature"
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The names a template defines at file scope: the first DG_SN(name)( or
# DG_SN(name)< on a line that starts a declaration (column 0), or on the line
# after a kernel's "__global__ ... __launch_bounds__(...)".
defined() {
  awk '
    { line = $0 }
    (line ~ /^[A-Za-z_]/ || (prev ~ /^(static |__global__)/ && line ~ /^[ ]+DG_SN\(/)) &&
      match(line, /DG_SN\([A-Za-z0-9_]+\)[(<]/) {
      s = substr(line, RSTART + 6, RLENGTH - 8); print s
    }
    { prev = line }' "$1" | sort -u
}

# 1. (unit, template, suffix) for every include of a template with DG_SN set
# shellcheck disable=SC2086
find $dirs -name '*.c' -o -name '*.cu' -o -name '*.h' -o -name '*.inc' | LC_ALL=C sort |
  while read -r unit; do
    awk -v unit="$unit" '
      /^#define[ ]+DG_SN\(x\)[ ]+x##_[df][ ]*$/ { n = split($0, a, "_"); sfx = a[n]; next }
      /^#undef[ ]+DG_SN/ { sfx = ""; next }
      sfx != "" && match($0, /^#include "[^"]*_t\.h"/) {
        t = substr($0, RSTART + 10, RLENGTH - 11); print unit, t, sfx
      }' "$unit"
  done >"$tmp/uses"
[ -s "$tmp/uses" ] || { echo "instance_names: no instantiating unit found under $src" >&2; exit 1; }
while read -r unit tmpl sfx; do
  path=$(dirname "$unit")/$tmpl
  # shellcheck disable=SC2086
  [ -f "$path" ] || path=$(find $dirs -name "$tmpl" | head -n 1)
  if [ -z "$path" ] || [ ! -f "$path" ]; then
    echo "instance_names: $unit includes $tmpl: not found" >&2
    fail=1
    continue
  fi
  for name in $(defined "$path"); do
    echo "${name}_$sfx" >>"$tmp/names"
    if ! grep -qw "${name}_$sfx" "$unit"; then
      echo "instance_names: $unit instantiates $tmpl but does not write ${name}_$sfx" >&2
      fail=1
    fi
  done
done <"$tmp/uses"

# 2. the libraries' exported _d/_f symbols, in their objects' sources
for lib in "$@"; do
  [ -f "$lib" ] || { echo "instance_names: library $lib not found" >&2; exit 1; }
  nm -A --defined-only -g "$lib" | awk '
    $NF ~ /^[A-Za-z][A-Za-z0-9_]*_[df]$/ { n = split($1, a, ":"); print a[n - 1], $NF }'
done >"$tmp/syms"
if [ $# -gt 0 ] && [ ! -s "$tmp/syms" ]; then
  echo "instance_names: no _d/_f symbol in $*" >&2
  exit 1
fi
while read -r obj sym; do
  # shellcheck disable=SC2086
  files=$(find $dirs -name "${obj%.o}")
  # shellcheck disable=SC2086
  if [ -z "$files" ] || ! grep -qw "$sym" $files; then
    echo "instance_names: $sym (object $obj) is not written in its source ${files:-(not found)}" >&2
    fail=1
  fi
done <"$tmp/syms"

# 3. the tags file
if command -v ctags >/dev/null 2>&1 && ctags --version 2>/dev/null | grep -q Universal; then
  sh scripts/tags.sh "$tmp/tags" >/dev/null
  awk '{ print $2 }' "$tmp/syms" | cat "$tmp/names" - | LC_ALL=C sort -u >"$tmp/want"
  cut -f1 "$tmp/tags" | LC_ALL=C sort -u >"$tmp/have"
  LC_ALL=C comm -23 "$tmp/want" "$tmp/have" >"$tmp/untagged"
  if [ -s "$tmp/untagged" ]; then
    echo "instance_names: scripts/tags.sh does not index: $(tr '\n' ' ' <"$tmp/untagged")" >&2
    fail=1
  fi
  tags="; all in scripts/tags.sh's tags"
else
  tags="; tags not checked (no Universal Ctags)"
fi
[ "$fail" = 0 ] || exit 1
echo "instance_names: $(wc -l <"$tmp/uses") template instances and $(wc -l <"$tmp/syms") exported _d/_f symbols found as written$tags"
