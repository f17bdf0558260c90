# checks.sh - the checks the app test scripts share (sourced by app_common.sh,
# safety_test.sh and hard_test.sh after they set DIR and define bad()).
# runp PROG ARGS...: RC, stdout in $DIR/out, stderr in $DIR/err
runp() { _p=$1; shift; "$_p" "$@" > "$DIR/out" 2> "$DIR/err"; RC=$?; }
want_rc() { [ "$RC" -eq "$1" ] || bad "$2: exit status $RC, expected $1 (stderr: $(cat "$DIR/err"))"; }
# want_err LABEL MESSAGE: stderr is exactly the one line MESSAGE
want_err() {
  [ "$(wc -l < "$DIR/err")" -eq 1 ] && [ "$(cat "$DIR/err")" = "$2" ] ||
    bad "$1: stderr is '$(cat "$DIR/err")', expected exactly the line '$2'"
}
# want_err_glob LABEL PATTERN: stderr is one line matching the shell PATTERN
# (for numbers of a solver that may differ in their last digits elsewhere)
want_err_glob() {
  _m=$(cat "$DIR/err")
  # shellcheck disable=SC2254
  case $_m in $2) [ "$(wc -l < "$DIR/err")" -eq 1 ] || bad "$1: stderr has more than one line: $_m" ;;
  *) bad "$1: stderr is '$_m', expected one line matching '$2'" ;; esac
}
# key NAME: value of NAME= on a program's summary (last stdout line)
key() { tail -n 1 "$DIR/out" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
# listing: checksums of the files in the current folder (what a refusal must not change)
listing() { find . -type f ! -name out ! -name err | LC_ALL=C sort | xargs -r cksum; }
# refuse LABEL MESSAGE ARGS...: status 2, the one line MESSAGE, no stdout, no
# file changed; ARGS run through $REFUSE_RUN (default runp: PROG ARGS...)
refuse() {
  _l=$1 _m=$2
  shift 2
  _before=$(listing)
  ${REFUSE_RUN:-runp} "$@"
  want_rc 2 "$_l"
  want_err "$_l" "$_m"
  [ -s "$DIR/out" ] && bad "$_l: wrote to stdout: $(cat "$DIR/out")"
  [ "$(listing)" = "$_before" ] || bad "$_l: files changed: $(listing)"
}
