# shellcheck shell=sh
# tests/mpi/flags.sh, sourced by the run_*.sh scripts once their own leading
# arguments are shifted off: of "-- [MPIEXEC FLAGS...] -- REST..." the flags
# go to $flags (words) and REST stays as the positional arguments.
[ "$1" = -- ] && shift
flags=""
while [ $# -gt 0 ] && [ "$1" != -- ]; do flags="$flags $1"; shift; done
[ $# -gt 0 ] && shift
