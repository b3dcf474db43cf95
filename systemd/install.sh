#!/usr/bin/env bash
# Install the table service on Raspberry Pi OS (systemd/README.md walks a technician through it):
#   sudo systemd/install.sh [--camera SPEC] [--serial DEV] [--language ru|en] [--table-id ID] [--profile P] [--no-start]
# Installs the package only (a wheel built from this checkout) into a new virtual environment beside the running
# one, switches /opt/mahjong-table/.venv to it once it imports (a failed re-run leaves the old one working), writes
# /etc/mahjong-table/config.toml for a real table (MCU on the header's UART: /dev/ttyAMA0 on a Pi 5, /dev/serial0
# before; lgpio pins, the real camera, the web page on the LAN) and asks for the judge's PIN, stored hashed. An
# existing config is kept; only a missing judge PIN is asked for. The PIN can be piped instead (--pin-stdin).
#   systemd/install.sh --write-config FILE [options]   only writes a config (no root needed; tests use it)
set -euo pipefail

usage() { sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }

# --- the program: a new venv beside the running one, switched to only when it works --------------------------
# $dest/venvs/<stamp> are the venvs, $dest/.venv a symlink to the current one (the unit's ExecStart goes through
# it); the previous one is kept (to go back: systemd/README.md). tests/controller/test_installer.py runs these
# functions with a fake python3 (MT_INSTALL_FUNCTIONS=1 sources only them).
python="${MT_PYTHON:-python3}"

build_venv() {  # $1: the venvs folder, $2: the checkout, $3: 1 for the Pi camera; prints the new venv
  local new wheels
  new="$(mktemp -d "$1/$(date +%Y%m%d-%H%M%S)-XXXX")" || return 1
  wheels="$(mktemp -d)"
  if "$python" -m venv --system-site-packages "$new" >&2 \
     && "$new/bin/python" -m pip install -q --upgrade pip >&2 \
     && "$new/bin/python" -m pip wheel -q --no-deps -w "$wheels" "$2" >&2 \
     && "$new/bin/python" -m pip install -q "$wheels"/mahjong_table-*.whl >&2 \
     && { [ "$3" != 1 ] || picamera_in_venv "$new" >&2; } \
     && check_venv "$new" "$3" >&2; then
    rm -rf "$wheels"; echo "$new"; return 0
  fi
  rm -rf "$wheels" "$new"
  return 1
}

# picamera2 comes from apt (python3-picamera2) and imports apt's simplejpeg, built for the system's numpy 1.x;
# the venv has numpy 2 (opencv-python-headless needs it): 'import picamera2' raises "ValueError: numpy.dtype size
# changed" (picamera2 issues #1088, #1211). A simplejpeg wheel from PyPI (built for numpy 2) in the venv comes
# first on its path and fixes it; the rest of picamera2 (libcamera's bindings) does not use numpy's C API.
picamera_in_venv() { "$1/bin/python" -m pip install -q "simplejpeg>=1.8"; }

check_venv() {  # $1: a venv, $2: 1 for the Pi camera: the program imports and runs there
  "$1/bin/python" -c 'import controller.cli, vision.pipeline, firmware_bridge, hall' \
    || { echo "install.sh: the new program does not import" >&2; return 1; }
  "$1/bin/mahjong-table" --help >/dev/null || { echo "install.sh: the new mahjong-table does not run" >&2; return 1; }
  [ "$2" != 1 ] || "$1/bin/python" -c 'import picamera2' \
    || { echo "install.sh: picamera2 does not import in the new venv (see the error above)" >&2; return 1; }
}

swap_venv() {  # $1: the install folder, $2: the new venv (under $1/venvs): $1/.venv points to it; keeps one previous
  local cur="" keep
  if [ -L "$1/.venv" ]; then cur="$(readlink "$1/.venv")"
  elif [ -d "$1/.venv" ]; then  # the layout before venvs/: a plain folder (its scripts name .venv, so it goes now)
    mv "$1/.venv" "$1/venvs/previous-$$"; cur=""
  fi
  ln -sfn "$2" "$1/.venv.next" && mv -T "$1/.venv.next" "$1/.venv"
  for keep in "$1"/venvs/*; do
    [ "$keep" = "$2" ] || [ "$keep" = "$cur" ] || rm -rf "$keep"
  done
}

install_program() {  # $1: the install folder, $2: the checkout, $3: 1 for the Pi camera
  local new
  mkdir -p "$1/venvs"
  if ! new="$(build_venv "$1/venvs" "$2" "$3")"; then
    echo "install.sh: the new program could not be installed; the one installed before is left as it was" >&2
    return 1
  fi
  swap_venv "$1" "$new"
  echo "installed the program in $new ($1/.venv points to it)"
}

board_model() { tr -d '\0' < "${MT_BOARD_MODEL_FILE:-/proc/device-tree/model}" 2>/dev/null || true; }

header_uart() {  # the serial device on the header's GPIO14/15 (controller/board.py decides the same)
  case "$(board_model)" in
    "Raspberry Pi 5"*|"Raspberry Pi 500"*|"Raspberry Pi Compute Module 5"*) echo /dev/ttyAMA0 ;;
    *) echo /dev/serial0 ;;
  esac
}

[ "${MT_INSTALL_FUNCTIONS:-}" != 1 ] || return 0

camera=picamera language=ru table_id="" profile="" start=1 pin_stdin=0 config_only="" serial=""
while [ $# -gt 0 ]; do
  case "$1" in
    --camera) camera="${2:?--camera needs a source: picamera, cam:0, rtsp://...}"; shift 2 ;;
    --serial) serial="${2:?--serial needs a device, e.g. /dev/ttyUSB0}"; shift 2 ;;
    --language) language="${2:?}"; shift 2 ;;
    --table-id) table_id="${2:?}"; shift 2 ;;
    --profile) profile="${2:?}"; shift 2 ;;
    --no-start) start=0; shift ;;
    --pin-stdin) pin_stdin=1; shift ;;
    --write-config) config_only="${2:?}"; shift 2 ;;
    -h|--help) usage 0 ;;
    *) echo "install.sh: unknown option $1" >&2; usage 2 >&2 ;;
  esac
done
case "$language" in ru|en) ;; *) echo "install.sh: --language is ru or en" >&2; exit 2 ;; esac

src="$(cd "$(dirname "$0")/.." && pwd)"
dest=/opt/mahjong-table
mt="${MT_BIN:-$dest/.venv/bin/mahjong-table}"

# The table's config: the development defaults turned into a real table's.
write_config() {  # $1: the file to write
  local tmp; tmp="$(mktemp)"
  "$mt" config example > "$tmp"
  sed -i -e 's/^pin_factory = "mock"/pin_factory = "lgpio"/' \
         -e "s#^port = \"emulator\"#port = \"${serial:-$(header_uart)}\"#" \
         -e "s#^source = \"synthetic\"#source = \"${camera//#/\\#}\"#" \
         -e 's/^host = "127.0.0.1"/host = "0.0.0.0"/' \
         -e "s/^language = \"en\"/language = \"$language\"/" "$tmp"
  [ -z "$table_id" ] || sed -i "s/^id = \"table-1\"/id = \"$table_id\"/" "$tmp"
  [ -z "$profile" ] || sed -i "s/^profile = \"[^\"]*\"/profile = \"$profile\"/" "$tmp"
  install -m 0640 "$tmp" "$1"
  rm -f "$tmp"
}

set_pin() {  # $1: the config file; asks on the terminal (twice) or reads one line with --pin-stdin
  if [ "$pin_stdin" -eq 1 ]; then "$mt" web set-pin --config "$1" --stdin
  else echo "The judge logs in to the table's web page with a PIN (at least 6 characters)."
       "$mt" web set-pin --config "$1"; fi
}

if [ -n "$config_only" ]; then
  write_config "$config_only"
  set_pin "$config_only"
  "$mt" config check --no-hardware "$config_only"
  exit 0
fi

[ "$(id -u)" -eq 0 ] || { echo "run as root: sudo $0" >&2; exit 1; }
id -u mahjong >/dev/null 2>&1 || useradd --system --home-dir /var/lib/mahjong-table --shell /usr/sbin/nologin mahjong
for g in dialout gpio video; do getent group "$g" >/dev/null && usermod -aG "$g" mahjong; done
conf=/etc/mahjong-table/config.toml
picam=0  # the Pi camera: asked for, or the config kept from before uses it
if [ "$camera" = picamera ] || grep -qs '^source = "picamera"' "$conf"; then picam=1; fi
pkgs=(python3-venv python3-lgpio)
[ "$picam" -eq 0 ] || pkgs+=(python3-picamera2)
# no recommends: python3-picamera2 recommends a desktop stack (Qt, OpenGL) that Pi OS Lite does not want
apt-get update -q || echo "install.sh: apt-get update failed (no network?): installing from the lists already here" >&2
apt-get install -y -q --no-install-recommends "${pkgs[@]}"
# the package only: a wheel of this checkout into a new virtual environment (no .git, no var/, no tests)
install_program "$dest" "$src" "$picam"
install -m 0644 "$src/README.md" "$dest/README.md"
install -d -m 0755 /etc/mahjong-table
if [ ! -f "$conf" ]; then
  write_config "$conf"
  echo "wrote $conf (camera $camera, web page on the LAN, language $language)"
  echo "the judge's login from phones needs HTTPS: merge the [web] section of 'hall provision --tls' (docs/web.md, HTTPS);"
  echo "until then the judge logs in on the table's own screen only"
fi
chgrp mahjong "$conf" && chmod 0640 "$conf"
if ! grep -q '^judge_pin_hash = "scrypt' "$conf"; then set_pin "$conf"; fi
"$mt" config check "$conf" || echo "install.sh: fix the problems above (systemd/README.md says how), then:" \
  "sudo systemctl restart mahjong-table" >&2
install -m 0644 "$src/systemd/mahjong-table.service" /etc/systemd/system/mahjong-table.service
systemctl daemon-reload
if [ "$start" -eq 1 ]; then
  systemctl enable --now mahjong-table.service
  systemctl restart mahjong-table.service
  systemctl --no-pager status mahjong-table.service || true
  port="$(sed -n 's/^port = \([0-9]*\)$/\1/p' "$conf" | tail -1)"
  echo "the table's page: http://$(hostname -I | awk '{print $1}'):${port:-8080}/"
fi
