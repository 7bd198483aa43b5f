#!/bin/sh
# ndpad-tune end to end (ctest): the budget holds, and --check reverts an entry that does
# not win. Usage: test-tune.sh <ndpad-tune>
set -u
tune="$1"
work=$(mktemp -d /tmp/ndpad-tune-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "test-tune: FAIL: $*" >&2; exit 1; }
problem="shape=16,128,128 pads=0,1,1/0,1,1 mode=constant esize=4"

# 1. The budget: three classes at two thread budgets in 3 s. The tuner's own clock (its
#    "tuning took" line: from the first measurement to the saved file) must stay within the
#    budget and half a second for one slow run; the wall time, process start, hwloc's
#    topology and the wisdom file included, within 3 s more. When other processes took over
#    a quarter of the CPUs meanwhile (the tuner says how much: five jobs on two cores, or a
#    sanitizer suite run in parallel), every run stretches, and with them the least a class
#    measures: then twice the budget and a second, which still catches a tuner that ignores
#    it. --noise: the whole search runs even on a loaded machine (which would otherwise
#    refuse early).
start=$(date +%s.%N)
"$tune" --budget 3 --noise 0.01 --threads 1,2 --cache "$work/w" --problem "$problem" \
    --problem "shape=300,700 pads=5,5/5,5 mode=reflect esize=4" \
    --problem "shape=4000000 pads=100/100 mode=wrap esize=1" >"$work/out" 2>&1 ||
    { cat "$work/out"; fail "ndpad-tune failed"; }
end=$(date +%s.%N)
took=$(sed -n 's/^tuning took \([0-9.]*\) s of a .*/\1/p' "$work/out")
others=$(sed -n 's/^tuning took .*other processes: \([0-9]*\)% of the CPUs.*/\1/p' "$work/out")
[ -n "$took" ] && [ -n "$others" ] || { cat "$work/out"; fail "no 'tuning took' line with the others' load"; }
limit=3.5 wall=6.0
if [ "$others" -gt 25 ]; then
    limit=7.0 wall=10.0
    echo "test-tune: other processes took $others% of the CPUs: budget checked within $limit s"
fi
awk -v t="$took" -v l="$limit" 'BEGIN { exit !(t <= l) }' ||
    { cat "$work/out"; fail "--budget 3: the tuner's clock says $took s (limit $limit s, others $others%)"; }
awk -v s="$start" -v e="$end" -v l="$wall" 'BEGIN { exit !(e - s <= l) }' ||
    { cat "$work/out"; fail "--budget 3 took $(awk -v s="$start" -v e="$end" 'BEGIN { print e - s }') s of wall time (limit $wall s)"; }

# 2. --check: a dreadful entry (one-row tiles of 16 elements) for the class of $problem at
#    one thread is reverted to the heuristic, unless the machine is too loaded to judge, in
#    which case the entry must stay as it was.
rm -f "$work/w"
"$tune" --check --budget 2 --threads 1 --cache "$work/w" --problem "$problem" >"$work/out" 2>&1 ||
    { cat "$work/out"; fail "ndpad-tune --check failed"; }
key=$(sed -n 's/.*no wisdom entry to check: class \(.*\))$/\1/p' "$work/out")
[ -n "$key" ] || { cat "$work/out"; fail "--check without an entry did not name the class"; }
fingerprint=$(sed -n 's/.*machine \(cpu=.*\)$/\1/p' "$work/out" | head -n 1)
[ -n "$fingerprint" ] || { cat "$work/out"; fail "no machine fingerprint in the output"; }
bad="class $key tile_rows=1 tile_cols=16 threads=1 stream=0 copy=vector path=rows prefetch=0 gbps=1.000"
printf 'ndpad-wisdom 5\nmachine %s\n%s\n' "$fingerprint" "$bad" >"$work/w"
# A refused check (loaded machine) exits 3 and leaves the file as it was.
status=0
"$tune" --check --budget 4 --threads 1 --cache "$work/w" --problem "$problem" >"$work/out" 2>&1 ||
    status=$?
[ "$status" = 0 ] || { [ "$status" = 3 ] && grep -q "REFUSED" "$work/out"; } ||
    { cat "$work/out"; fail "ndpad-tune --check failed (status $status)"; }
if grep -q "REFUSED" "$work/out"; then
    grep -qF "$bad" "$work/w" || { cat "$work/out" "$work/w"; fail "a refused check changed the entry"; }
    echo "test-tune: machine loaded: --check refused and kept the entry (as it must)"
else
    grep -q "entry dropped" "$work/out" || { cat "$work/out"; fail "the bad entry was not dropped"; }
    grep -qF "$bad" "$work/w" && { cat "$work/w"; fail "the bad entry is still in the file"; }
    grep -qF "class $key tile_rows=" "$work/w" || { cat "$work/w"; fail "the class lost its entry"; }
fi
# The same with the noise given (--noise 0.01), so that the verdict is reached however
# loaded the machine: one-row tiles of 16 elements lose by far more than any margin.
printf 'ndpad-wisdom 4\nmachine %s\n%s\n' "$fingerprint" "$bad" >"$work/w"
"$tune" --check --noise 0.01 --budget 4 --threads 1 --cache "$work/w" --problem "$problem" \
    >"$work/out" 2>&1 || { cat "$work/out"; fail "ndpad-tune --check --noise failed"; }
grep -q "entry dropped" "$work/out" || { cat "$work/out"; fail "the bad entry was not dropped"; }
grep -qF "$bad" "$work/w" && { cat "$work/w"; fail "the bad entry is still in the file"; }
grep -qF "class $key tile_rows=" "$work/w" || { cat "$work/w"; fail "the class lost its entry"; }
# 3. Two problems of one class (a crop on one side and a pad on the other gives the same
#    output size as $problem): the class is tuned once, on the first; the second checks the
#    entry the first stored instead of overwriting it, and says so.
rm -f "$work/w"
"$tune" --budget 3 --noise 0.01 --threads 1 --cache "$work/w" --problem "$problem" \
    --problem "shape=16,128,128 pads=0,-1,-1/0,3,3 mode=constant esize=4" >"$work/out" 2>&1 ||
    { cat "$work/out"; fail "ndpad-tune with two problems of one class failed"; }
[ "$(grep -c "class tuned by given-constant" "$work/out")" = 1 ] ||
    { cat "$work/out"; fail "the second problem of the class did not check the first's entry"; }
[ "$(grep -c "^class " "$work/w")" = 1 ] || { cat "$work/w"; fail "not one entry for the class"; }
# 4. A refused tuning (the noise given as 50%: a loaded machine's verdict) exits 3, says
#    why, and writes nothing: no file where there was none, the old file where there was one.
rm -f "$work/w"
status=0
"$tune" --budget 1 --noise 0.5 --threads 1 --cache "$work/w" --problem "$problem" >"$work/out" 2>&1 ||
    status=$?
[ "$status" = 3 ] || { cat "$work/out"; fail "a refused tuning exited $status, not 3"; }
grep -q "nothing was tuned" "$work/out" || { cat "$work/out"; fail "a refused tuning did not say so"; }
grep -q "wisdom written" "$work/out" && { cat "$work/out"; fail "a refused tuning claims it wrote"; }
[ -e "$work/w" ] && fail "a refused tuning created $work/w"
printf 'ndpad-wisdom 5\nmachine %s\n%s\n' "$fingerprint" "$bad" >"$work/w"
cp "$work/w" "$work/w.before"
"$tune" --budget 1 --noise 0.5 --threads 1 --cache "$work/w" --problem "$problem" >"$work/out" 2>&1 &&
    fail "a refused tuning exited 0"
cmp -s "$work/w" "$work/w.before" || fail "a refused tuning changed the wisdom file"

# 5. The help is the manual (every option), and bad arguments say what is wrong (status 2).
"$tune" --help >"$work/out" 2>&1 || fail "--help failed"
for option in --budget --problem --cache --threads --large --max-memory --check --noise \
    --neighbours --compare --compare-only --no-save "Exit status"; do
    grep -q -- "$option" "$work/out" || fail "--help does not describe $option"
done
expect_bad() { # expect_bad MESSAGE ARG...: status 2 and MESSAGE on stderr
    message="$1"
    shift
    status=0
    "$tune" "$@" >"$work/out" 2>&1 || status=$?
    [ "$status" = 2 ] || { cat "$work/out"; fail "'$*' exited $status, not 2"; }
    grep -qF -- "$message" "$work/out" || { cat "$work/out"; fail "'$*' does not say '$message'"; }
}
expect_bad "unknown option: --bogus" --bogus
expect_bad "option needs a value: --budget" --budget
expect_bad "mode= wants" --problem "shape=4 mode=mirror"
expect_bad "pads= has 1 begin and 1 end values for a shape of rank 2" --problem "shape=1,2 pads=1/1"
expect_bad "unknown key" --problem "shap=4"
expect_bad "esize= wants" --problem "shape=4 esize=two"
echo "test-tune: ok"
