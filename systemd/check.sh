#!/usr/bin/env bash
# CI check of the unit: systemd-analyze verify (syntax, directives) and the security exposure score.
# Prints "exposure N" and fails when the score is above the goal (2.5) or verify reports an error.
set -uo pipefail
unit="$(cd "$(dirname "$0")" && pwd)/mahjong-table.service"
command -v systemd-analyze >/dev/null || { echo "systemd-analyze missing" >&2; exit 2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# verify needs the ExecStart binary to exist: check a copy pointing at /bin/true
sed 's#^ExecStart=.*#ExecStart=/bin/true#' "$unit" > "$tmp/mahjong-table.service"
out=$(systemd-analyze verify "$tmp/mahjong-table.service" 2>&1)
bad=$(echo "$out" | grep -v -e '^$' -e 'Failed to .*bus' -e 'No such file or directory' -e 'getpwnam\|Failed to resolve user\|Failed to resolve group\|group' || true)
if [ -n "$bad" ]; then echo "systemd-analyze verify:"; echo "$bad"; fi
score=$(systemd-analyze security --offline=true "$tmp/mahjong-table.service" 2>/dev/null | sed -n 's/.*Overall exposure level for .*: \([0-9.]*\).*/\1/p')
bash -n "$(dirname "$unit")/install.sh" || { echo "install.sh: syntax error"; exit 1; }
echo "exposure ${score:-unknown} (goal <= 2.5)"
[ -n "$score" ] || exit 1
awk -v s="$score" 'BEGIN { exit !(s <= 2.5) }'
