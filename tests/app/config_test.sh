#!/bin/sh
# app.config, app.config_errors: configuration files of apps/advect (runs,
# precedence, --print-config, every error line).
# Usage: config_test.sh CASE DIR ADVECT COMPARE H5LS H5DUMP PYTHON3 CHECK_XDMF_PY DG_APP_C IO_GEN
# (the arguments, the working folder and the helpers: app_common.sh)
. "$(dirname "$0")/app_common.sh"

case $CASE in

config)
  # The same run from the command line, from a plain configuration file, from
  # an INI one (--config), with CRLF and a byte order mark, and from what
  # --print-config wrote: bitwise the same coefficients every time.
  O="--cells 6x4 --map random --degree 3 --degree-min 1 --seed 7 --velocity rotation --init gauss --integrator rk4 --cfl 0.4 --t-end 0.05 --quiet"
  run $O --output cli.h5
  want_rc 0 "command-line run"
  printf 'cells = 6x4\nmap = random\ndegree = 3\ndegree-min = 1\nseed = 7\nvelocity = rotation\ninit = gauss\nintegrator = rk4\ncfl = 0.4\nt-end = 0.05\nquiet = true\noutput = plain.h5\n' > plain.cfg
  run plain.cfg
  want_rc 0 "plain configuration"
  [ -s "$DIR/err" ] && bad "plain configuration wrote to stderr: $(cat "$DIR/err")"
  same_coeffs "plain configuration vs command line" plain.h5 cli.h5
  printf '# a comment\n; another\n\n[grid]\ncells = 6x4\nmap = random\n  degree   =   3  \ndegree-min=1\nseed = 7\n[physics]\nvelocity = rotation\ninit = gauss\n[time]\nintegrator = rk4\ncfl = 0.4\nt-end = 0.05\n[ output ]\nquiet = true\noutput = ini.h5\n' > ini.cfg
  run --config ini.cfg
  want_rc 0 "INI configuration"
  same_coeffs "INI configuration vs command line" ini.h5 cli.h5
  { printf '\357\273\277'; sed 's/ini\.h5/crlf.h5/; s/$/\r/' ini.cfg; } > crlf.cfg
  run --config=crlf.cfg
  want_rc 0 "CRLF configuration"
  same_coeffs "CRLF configuration vs command line" crlf.h5 cli.h5
  # --print-config: every option, in the format the parser reads, and nothing run
  run $O --output cli.h5 --print-config
  want_rc 0 "--print-config"
  [ -s "$DIR/err" ] && bad "--print-config wrote to stderr: $(cat "$DIR/err")"
  cp "$DIR/out" printed.cfg
  grep -q '^\[physics\]$' printed.cfg && grep -q '^bell-radius = 0.1$' printed.cfg &&
    grep -q '^q = 4$' printed.cfg && grep -q '^view-samples = 4$' printed.cfg ||
    bad "--print-config lacks sections, model parameters or resolved defaults: $(cat printed.cfg)"
  # the snapshot stores the same configuration
  [ "$(cfgdump cli.h5)" = "$(cat printed.cfg)" ] ||
    bad "cli.h5 stores another configuration than --print-config: $(cfgdump cli.h5)"
  # round trip: reading it back prints it again, byte for byte; running it is the same run
  run printed.cfg --print-config
  cmp -s "$DIR/out" printed.cfg || bad "print-config round trip: $(diff printed.cfg "$DIR/out")"
  sed 's/^output = cli\.h5$/output = printed.h5/' printed.cfg > printed2.cfg
  run printed2.cfg
  want_rc 0 "run of the printed configuration"
  same_coeffs "printed configuration vs command line" printed.h5 cli.h5
  for m in "--model acoustics --box 0,2,0,1 --bulk 2" "--model burgers --dt 0.01 --steps 3" \
           "--model deformation --init bell" "--model advection_reaction --lambda 0.5" \
           "--model advection_field --field deformation" \
           "--model sphere_advection --grid latlon --cells 4 --radius 2" \
           "--model advection_diffusion --nu 0.05" \
           "--dim 3 --beta 1,-0.5,0.25 --map band --degree-min 1" "--map-file ok.map --cells 3x2" \
           "--text-output t.txt --output-every 5 --history --verbose --box -1,1,0,0.1" \
           "--model-file tilted.h --beta 0.5,2" "--backend omp --degree 1" \
           "--model shallow_water --case gravity_wave"; do
    sed -e 's/dg_model_advection\b/dg_model_tilted/; s/"advection",/"tilted",/' \
      "$(dirname "$DG_APP_C")/../models/advection.h" > tilted.h
    printf '1 2 3\n3 2 1\n' > ok.map
    # shellcheck disable=SC2086
    run $m --print-config
    want_rc 0 "--print-config $m"
    cp "$DIR/out" rt.cfg
    run rt.cfg --print-config
    cmp -s "$DIR/out" rt.cfg || bad "round trip of $m: $(diff rt.cfg "$DIR/out")"
    cat rt.cfg >> allkeys.cfg
  done
  run --restart cli.h5 --print-config
  want_rc 0 "--restart --print-config"
  grep -q '^restart = cli\.h5$' "$DIR/out" || bad "--print-config of a restart lacks its restart key"
  cat "$DIR/out" >> allkeys.cfg
  # every option of --help is a key of some printed configuration
  run --help
  for o in $(sed -n 's/^  --\([a-z-]*\).*/\1/p' "$DIR/out"); do
    case $o in help|config|print-config) continue ;; esac
    grep -q "^$o = " allkeys.cfg || bad "option --$o is in no printed configuration"
  done
  # the command line overrides the file, also across the exclusive pairs
  run plain.cfg --cells 5x4 --dt 0.01 --steps 3 --print-config
  want_rc 0 "overrides"
  grep -q '^cells = 5x4$' "$DIR/out" && grep -q '^dt = 0.01$' "$DIR/out" && grep -q '^steps = 3$' "$DIR/out" &&
    ! grep -q '^cfl = ' "$DIR/out" && ! grep -q '^t-end = ' "$DIR/out" && grep -q '^seed = 7$' "$DIR/out" ||
    bad "command line over file: $(cat "$DIR/out")"
  run plain.cfg --cells 5x4 --dt 0.01 --steps 3 --output over.h5
  want_rc 0 "overridden run"
  run --cells 5x4 --map random --degree 3 --degree-min 1 --seed 7 --velocity rotation --init gauss \
    --integrator rk4 --dt 0.01 --steps 3 --quiet --output over_cli.h5
  same_coeffs "file + command line vs command line" over.h5 over_cli.h5
  # a flag of the file undone on the command line (--quiet=false)
  run plain.cfg --quiet=false --history=true --steps 100 --progress-every 50 --output flags.h5
  want_rc 0 "--quiet=false over quiet = true"
  grep -q '^progress: step 50 ' "$DIR/out" || bad "--quiet=false: no progress line: $(cat "$DIR/out")"
  run plain.cfg --quiet=false --history=true --print-config
  grep -q '^quiet = false$' "$DIR/out" && grep -q '^history = true$' "$DIR/out" ||
    bad "--quiet=false --history=true: $(cat "$DIR/out")"
  # /parameters keeps the options as given, from the file and the command line
  [ "$(param over.h5 seed)" = 7 ] || bad "/parameters/seed of over.h5 is '$(param over.h5 seed)', not the file's 7"
  [ "$(param over.h5 dt)" = 0.01 ] || bad "/parameters/dt of over.h5 is '$(param over.h5 dt)', not the command line's 0.01"
  ;;

config_errors)
  # Every error of a configuration file: one line naming file, line and key,
  # status 2, nothing written.
  run --cells 4x4 --degree 1 --steps 1 --quiet
  want_rc 0 "setup run"
  mkdir sub || exit 2
  before=$(listing)
  # FILE CONTENT (printf format) | exact stderr line
  while IFS='|' read -r content msg; do
    [ -z "$content" ] && continue
    # shellcheck disable=SC2059
    printf "$content" > "$DIR.bad.cfg"
    run "$DIR.bad.cfg" --cells 4x4 --degree 1 --steps 1 --quiet --output bad.h5
    want_rc 2 "$content"
    want_err "$content" "$(echo "$msg" | sed "s|BAD|$DIR.bad.cfg|")"
    [ -s "$DIR/out" ] && bad "$content: wrote to stdout: $(cat "$DIR/out")"
    [ "$(listing)" = "$before" ] || bad "$content: files changed: $(listing)"
  done << 'EOF'
velocty = rotation\n|advect: BAD:1: unknown key 'velocty'
# c\n\nmean = 1\n|advect: BAD:3: unknown key 'mean' (a parameter of model burgers, not of advection)
Dt = 0.1\n|advect: BAD:1: unknown key 'Dt'
config = other.cfg\n|advect: BAD:1: unknown key 'config'
help = true\n|advect: BAD:1: unknown key 'help'
dt = 0.1\ninit = sine\ndt = 0.2\n|advect: BAD:3: key 'dt' given twice (first on line 1)
[time]\ndt = 0.1\n[time]\ndt = 0.1\n|advect: BAD:4: key 'dt' given twice (first on line 2)
velocity rotation\n|advect: BAD:1: no '=' in 'velocity rotation' (lines are key = value)
dt =\n|advect: BAD:1: key 'dt' has an empty value
dt =  \t \n|advect: BAD:1: key 'dt' has an empty value
 = 3\n|advect: BAD:1: no key before '=' in '= 3'
my key = 1\n|advect: BAD:1: key 'my key' is not a name (letters, digits, '-', '_', '.')
dt = 0.1\nin\000it = sine\n|advect: BAD:2: NUL byte at column 3
dt = 0.1\001\n|advect: BAD:1: control character \x01 at column 9
dt = 0.1\rx\n|advect: BAD:1: control character \x0d at column 9
[foo]\n|advect: BAD:1: unknown section [foo] (sections: grid, physics, time, output)
[grid\n|advect: BAD:1: '[grid' is not a [section] header
[grid]\ndt = 0.1\n|advect: BAD:2: key 'dt' belongs in [time], not [grid]
[output]\nbeta = 1,1\n|advect: BAD:2: key 'beta' belongs in [physics], not [output]
dt = 1e-3x\n|advect: BAD:1: option --dt: '1e-3x' is not a finite number
dt = nan\n|advect: BAD:1: option --dt: 'nan' is not a finite number
dt = 0.1 # a comment\n|advect: BAD:1: key 'dt': a comment after the value ('0.1 # a comment'); comments are whole lines starting with # or ;
dt = 0.1 ;c\n|advect: BAD:1: key 'dt': a comment after the value ('0.1 ;c'); comments are whole lines starting with # or ;
output = a#b.h5\ndt = x\n|advect: BAD:2: option --dt: 'x' is not a finite number
seed = -1\n|advect: BAD:1: option --seed: -1 is outside 0..4611686018427387904
integrator = rk3\n|advect: BAD:1: option --integrator: 'rk3' is not one of euler, ssprk2, ssprk3, rk4, lsrk4
init = sine\nbeta = 1,x\n|advect: BAD:2: option --beta: 'x' is not a finite number
beta = 1,1,1\n|advect: BAD:1: option --beta: 3 components given but --dim is 2
bell-radius = 0\n|advect: BAD:1: option --bell-radius: 0 must be positive
dt = 0.1\ncfl = 0.5\n|advect: BAD:2: keys dt (line 1) and cfl exclude each other
t-end = 1\nsteps = 3\n|advect: BAD:2: keys t-end (line 1) and steps exclude each other
history = yes\n|advect: BAD:1: option --history: 'yes' is not one of false, true
model = swe\n|advect: BAD:1: option --model: 'swe' is not a model of this build (advection, deformation, burgers, acoustics, advection_reaction, advection_field, sphere_advection, advection_diffusion, shallow_water)
[physics]\nmodel = burgers\nvelocity = rotation\n|advect: BAD:3: unknown key 'velocity' (a parameter of model advection, not of burgers)
EOF
  rm -f "$DIR.bad.cfg"
  # the command line's own errors about the file
  awk 'BEGIN { printf "output = "; for (i = 0; i < 1100; ++i) printf "a"; printf "\n" }' > long.cfg
  printf 'dt = 0.1\n' > a.cfg
  printf 'cfl = 0.1\n' > b.cfg
  awk 'BEGIN { for (i = 0; i < 21000; ++i) printf "# padding padding padding padding padding padding\n" }' > big.cfg
  before=$(listing)
  while IFS='|' read -r args msg; do
    [ -z "$args" ] && continue
    # shellcheck disable=SC2086
    run $args
    want_rc 2 "$args"
    want_err "$args" "$(echo "$msg" | sed "s|SIZE|$(wc -c < big.cfg)|")"
    [ -s "$DIR/out" ] && bad "$args: wrote to stdout: $(cat "$DIR/out")"
    [ "$(listing)" = "$before" ] || bad "$args: files changed: $(listing)"
  done << 'EOF'
long.cfg|advect: long.cfg:1: line of 1109 bytes, longer than 1024
big.cfg|advect: big.cfg: SIZE bytes, more than the 1048576 a configuration may have
nope.cfg|advect: nope.cfg: cannot open: No such file or directory
sub|advect: sub: not a regular file; only regular files are read
a.cfg b.cfg|advect: unexpected argument 'b.cfg' (one configuration file at most; options start with --; see --help)
--config a.cfg b.cfg|advect: unexpected argument 'b.cfg' (one configuration file at most; options start with --; see --help)
a.cfg --config b.cfg|advect: option --config: one configuration file at most ('a.cfg' given before)
--config|advect: option --config needs a value
--config=|advect: option --config: empty path
--print-config=1|advect: option --print-config takes no value
--print-config --print-config|advect: option --print-config given twice
EOF
  ;;

*)
  die "unknown case $CASE"
  ;;
esac
exit $fail
