#!/usr/bin/env bash
# Install the table service on Raspberry Pi OS (systemd/README.md walks a technician through it):
#   sudo systemd/install.sh [--camera SPEC] [--language ru|en] [--table-id ID] [--profile P] [--no-start]
# Installs the package only (a wheel built from this checkout) into /opt/mahjong-table/.venv, writes
# /etc/mahjong-table/config.toml for a real table (MCU on /dev/serial0, lgpio pins, the real camera, the
# web page on the LAN) and asks for the judge's PIN, stored hashed. An existing config is kept; only a
# missing judge PIN is asked for. The PIN can be piped instead (--pin-stdin): it is never written or logged.
#   systemd/install.sh --write-config FILE [options]   only writes a config (no root needed; tests use it)
set -euo pipefail

usage() { sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
camera=picamera language=ru table_id="" profile="" start=1 pin_stdin=0 config_only=""
while [ $# -gt 0 ]; do
  case "$1" in
    --camera) camera="${2:?--camera needs a source: picamera, cam:0, rtsp://...}"; shift 2 ;;
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
         -e 's#^port = "emulator"#port = "/dev/serial0"#' \
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
  "$mt" config check "$config_only"
  exit 0
fi

[ "$(id -u)" -eq 0 ] || { echo "run as root: sudo $0" >&2; exit 1; }
id -u mahjong >/dev/null 2>&1 || useradd --system --home-dir /var/lib/mahjong-table --shell /usr/sbin/nologin mahjong
for g in dialout gpio video; do getent group "$g" >/dev/null && usermod -aG "$g" mahjong; done
apt-get install -y -q python3-venv python3-lgpio python3-picamera2 >/dev/null 2>&1 \
  || apt-get install -y -q python3-venv python3-lgpio >/dev/null
# the package only: a wheel of this checkout into a fresh virtual environment (no .git, no var/, no tests)
mkdir -p "$dest"
rm -rf "$dest/.venv"
python3 -m venv --system-site-packages "$dest/.venv"   # lgpio and picamera2 come from the system on a Pi
"$dest/.venv/bin/pip" install -q --upgrade pip
wheels="$(mktemp -d)"; trap 'rm -rf "$wheels"' EXIT
"$dest/.venv/bin/pip" wheel -q --no-deps -w "$wheels" "$src"
"$dest/.venv/bin/pip" install -q "$wheels"/mahjong_table-*.whl
install -m 0644 "$src/README.md" "$dest/README.md"
install -d -m 0755 /etc/mahjong-table
conf=/etc/mahjong-table/config.toml
if [ ! -f "$conf" ]; then
  write_config "$conf"
  echo "wrote $conf (camera $camera, web page on the LAN, language $language)"
  echo "the judge's login from phones needs HTTPS: merge the [web] section of 'hall provision --tls' (docs/web.md, HTTPS);"
  echo "until then the judge logs in on the table's own screen only"
fi
chgrp mahjong "$conf" && chmod 0640 "$conf"
if ! grep -q '^judge_pin_hash = "scrypt' "$conf"; then set_pin "$conf"; fi
"$mt" config check "$conf"
install -m 0644 "$src/systemd/mahjong-table.service" /etc/systemd/system/mahjong-table.service
systemctl daemon-reload
if [ "$start" -eq 1 ]; then
  systemctl enable --now mahjong-table.service
  systemctl restart mahjong-table.service
  systemctl --no-pager status mahjong-table.service || true
  port="$(sed -n 's/^port = \([0-9]*\)$/\1/p' "$conf" | tail -1)"
  echo "the table's page: http://$(hostname -I | awk '{print $1}'):${port:-8080}/"
fi
