#!/bin/sh
# tests/models_doc.sh SRC WORK APPS - docs/MODELS.md as a new user follows it:
# the model header exactly as the page shows it goes into a folder of the
# user's own, the page's run commands run it with the programs of this build
# (APPS first on PATH, as the page says: nothing of this machine's paths is
# assumed), and the two runs' errors give the rate the page states (r + 1 = 3,
# within 0.3).  Also checks that the page's header is the one in models/ (the
# page cannot drift from the code).
set -eu
src=$1
work=$2
apps=$3
[ -x "$apps/advect" ] || { echo "models_doc: no advect in $apps" >&2; exit 1; }
page=$src/docs/MODELS.md
rm -rf "$work"
mkdir -p "$work/mymodels"
cd "$work"
# the fenced block after a marker line "<!-- test: KIND ... -->"
block() {
  awk -v kind="$1" '
    index($0, "<!-- test: " kind) == 1 { want = 1; next }
    want && /^```/ { if (inside) exit; inside = 1; next }
    inside { print }' "$page"
}
name=$(grep -o '<!-- test: header [a-z_0-9]*\.h' "$page" | awk '{print $4}')
[ -n "$name" ] || { echo "models_doc: no header marker in $page" >&2; exit 1; }
block header > "mymodels/$name"
if ! cmp -s "mymodels/$name" "$src/models/$name"; then
  echo "models_doc: the header on the page differs from models/$name:" >&2
  diff "mymodels/$name" "$src/models/$name" >&2 || true
  exit 1
fi
block run > run.sh
[ -s run.sh ] || { echo "models_doc: no run block in $page" >&2; exit 1; }
PATH="$apps:$PATH" sh -e run.sh > run.log 2>&1 || { cat run.log >&2; exit 1; }
cat run.log
grep -c "model=burgers" run.log | grep -qx 2 || { echo "models_doc: expected two runs of model burgers" >&2; exit 1; }
awk '
  /^advect: backend=/ { for (i = 1; i <= NF; ++i) if ($i ~ /^l2_error=/) { split($i, a, "="); e[n++] = a[2] } }
  END {
    if (n != 2) { print "models_doc: " n " errors found" > "/dev/stderr"; exit 1 }
    rate = log(e[0] / e[1]) / log(2)
    printf "models_doc: L2 %.3e -> %.3e, rate %.2f\n", e[0], e[1], rate
    if (rate < 2.7 || rate > 3.3) { print "models_doc: rate not 3 within 0.3" > "/dev/stderr"; exit 1 }
  }' run.log
