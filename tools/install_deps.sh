#!/usr/bin/env bash
# The Debian packages `make test` / `make run` (and .ci/run) need, installed on a fresh Debian or Raspberry Pi OS:
#   tools/install_deps.sh [test|run]      (make deps; make test and make run call it first)
# test: python3-venv, mosquitto (the hall tests' broker), chromium (the web page's browser tests),
#       systemd (systemd-analyze: the unit file's check), libnss3-tools (certutil: the hall CA trusted by
#       chromium in the HTTPS browser tests); run: python3-venv only.
# As root: apt-get update, then apt-get install of what is missing. Otherwise, when something is missing: one
# line naming the exact command to run, exit 2. Nothing missing: silent, exit 0.
# MT_ALLOW_MISSING="chromium systemd-analyze" leaves those out on purpose (their tests are then skipped and
# the test summary says so); the probes can be pointed elsewhere (tests: tests/test_install_deps.py):
# MT_DEPS_ROOT (a prefix for the absolute paths probed), MT_DEPS_PYTHON (python3), MT_DEPS_UID (id -u),
# MT_APT_GET (apt-get).
set -euo pipefail

what="${1:-test}"
case "$what" in test|run) ;; -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "install_deps.sh: test or run, not '$what'" >&2; exit 2 ;; esac

root="${MT_DEPS_ROOT:-}"
py="${MT_DEPS_PYTHON:-python3}"
uid="${MT_DEPS_UID:-$(id -u)}"
apt="${MT_APT_GET:-apt-get}"
allowed=" $(echo "${MT_ALLOW_MISSING:-}" | tr ',' ' ') "

has() {  # $1: a command name, then the absolute paths Debian installs it at
  local name="$1" p; shift
  for p in "$@"; do [ -x "$root$p" ] && return 0; done
  [ -z "$root" ] && command -v "$name" >/dev/null 2>&1
}

need=()
want() {  # $1: the tool (the name MT_ALLOW_MISSING uses), $2: its Debian package; the probe follows
  local tool="$1" pkg="$2"; shift 2
  case "$allowed" in *" $tool "*) return 0 ;; esac
  "$@" || need+=("$pkg")
}

venv_ok() { command -v "$py" >/dev/null 2>&1 && "$py" -c 'import venv, ensurepip' >/dev/null 2>&1; }
want python3-venv python3-venv venv_ok
if [ "$what" = test ]; then
  want mosquitto mosquitto has mosquitto /usr/sbin/mosquitto /usr/bin/mosquitto
  want chromium chromium has chromium /usr/bin/chromium
  want systemd-analyze systemd has systemd-analyze /usr/bin/systemd-analyze
  want certutil libnss3-tools has certutil /usr/bin/certutil   # the hall CA in chromium's NSS db (tests/web)
fi
[ ${#need[@]} -eq 0 ] && exit 0

cmd="apt-get update && apt-get install -y ${need[*]}"
if [ "$uid" -ne 0 ]; then
  echo "mahjong-table: error: missing Debian packages (${need[*]}): run  sudo apt-get update && sudo apt-get install -y ${need[*]}" >&2
  exit 2
fi
if ! command -v "$apt" >/dev/null 2>&1; then
  echo "mahjong-table: error: missing ${need[*]} and no apt-get here: install them with this system's package manager" >&2
  exit 2
fi
echo "installing Debian packages: ${need[*]} ($cmd)"
export DEBIAN_FRONTEND=noninteractive
"$apt" update -q
"$apt" install -y -q "${need[@]}"
