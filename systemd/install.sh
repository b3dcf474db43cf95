#!/usr/bin/env bash
# Install the table service on Raspberry Pi OS: user, code in /opt, config in /etc, the systemd unit.
#   sudo systemd/install.sh            (from a checkout of mahjong-table)
set -euo pipefail
[ "$(id -u)" -eq 0 ] || { echo "run as root: sudo $0" >&2; exit 1; }
src="$(cd "$(dirname "$0")/.." && pwd)"
dest=/opt/mahjong-table
id -u mahjong >/dev/null 2>&1 || useradd --system --home-dir /var/lib/mahjong-table --shell /usr/sbin/nologin mahjong
for g in dialout gpio video; do getent group "$g" >/dev/null && usermod -aG "$g" mahjong; done
apt-get install -y -q python3-venv python3-lgpio >/dev/null 2>&1 || true
mkdir -p "$dest"
cp -a "$src/." "$dest/"
rm -rf "$dest/.venv"
python3 -m venv --system-site-packages "$dest/.venv"   # lgpio from the system on a Pi 5
"$dest/.venv/bin/pip" install -q "$dest"
install -d -m 0755 /etc/mahjong-table
if [ ! -f /etc/mahjong-table/config.toml ]; then
  "$dest/.venv/bin/mahjong-table" config example > /etc/mahjong-table/config.toml
  sed -i 's/^pin_factory = "mock"/pin_factory = "lgpio"/; s/^port = "emulator"/port = "\/dev\/serial0"/' /etc/mahjong-table/config.toml
  echo "wrote /etc/mahjong-table/config.toml: review it, then 'mahjong-table config check'"
fi
"$dest/.venv/bin/mahjong-table" config check /etc/mahjong-table/config.toml
install -m 0644 "$src/systemd/mahjong-table.service" /etc/systemd/system/mahjong-table.service
systemctl daemon-reload
systemctl enable --now mahjong-table.service
systemctl --no-pager status mahjong-table.service || true
