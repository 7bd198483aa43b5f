#!/usr/bin/env bash
# Regression test for ci/install-deps.sh (issue 12, defect 12): with another apt holding the
# lock, it waits (DPkg::Lock::Timeout on every apt-get call, update included) and retries,
# instead of failing at once. A fake apt-get on PATH records its arguments and reports a
# held lock on its first call; dpkg-query is real (a package that cannot be installed
# makes the script reach apt-get). Takes a second; touches no real package.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/ndpad-install-deps.XXXXXX")"
trap 'rm -rf "$work"' EXIT
fail() { echo "test-install-deps: FAIL: $*" >&2; exit 1; }

mkdir "$work/bin"
cat >"$work/bin/apt-get" <<'FAKE'
#!/usr/bin/env bash
echo "$*" >>"$FAKE_APT_LOG"
if [ ! -e "$FAKE_APT_LOG.busy-once" ]; then
    touch "$FAKE_APT_LOG.busy-once"
    echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 4242 (apt-get)" >&2
    exit 100
fi
exit 0
FAKE
chmod +x "$work/bin/apt-get"
# Not root: the script would use sudo -n; a fake sudo runs the command as it is.
printf '#!/usr/bin/env bash\n[ "$1" = -n ] && shift\nexec "$@"\n' >"$work/bin/sudo"
chmod +x "$work/bin/sudo"

export FAKE_APT_LOG="$work/apt.log"
PATH="$work/bin:$PATH" NDPAD_APT_RETRY_SLEEP=0 \
    bash "$root/ci/install-deps.sh" ndpad-no-such-package-for-install-deps-test \
    >"$work/out.txt" 2>&1 || { cat "$work/out.txt"; fail "install-deps.sh failed on a busy lock"; }

[ "$(grep -c '^' "$FAKE_APT_LOG")" -eq 3 ] ||
    { cat "$FAKE_APT_LOG"; fail "expected update (busy), update, install"; }
while read -r line; do
    grep -q -- '-o DPkg::Lock::Timeout=600' <<<"$line" || fail "no lock timeout in: apt-get $line"
done <"$FAKE_APT_LOG"
grep -q ' update' <(sed -n 2p "$FAKE_APT_LOG") || fail "update not retried"
grep -q ' install .*ndpad-no-such-package-for-install-deps-test' <(sed -n 3p "$FAKE_APT_LOG") ||
    fail "install not run"
grep -q 'apt is busy' "$work/out.txt" || fail "no message about the busy lock"
echo "test-install-deps: ok (waits for the apt lock, retries a busy run)"
