#!/usr/bin/env bash
# make test-arm64: the program run as a Raspberry Pi (bookworm, aarch64) runs it, under user-mode emulation.
#
#   1. Debian's qemu-user-static, binfmt-support and debootstrap (installed when run as root, else one line
#      naming the command and exit 2); the kernel's binfmt_misc told to run aarch64 ELF files with
#      qemu-aarch64-static (flag F: the interpreter is opened now, so it works inside a chroot);
#   2. a minimal bookworm arm64 root (debootstrap --variant=minbase, python3 + python3-venv, from the Debian
#      mirror this machine's apt uses) with a venv holding the project's runtime dependencies as aarch64
#      wheels from PyPI (downloaded on this machine for the Pi's platform -- manylinux up to glibc 2.36 --
#      every one checked to be aarch64 or pure Python, then installed inside the root by its own pip with
#      --no-index); cached in $MT_ARM64_CACHE (default /var/cache/mahjong-table), keyed by a hash of
#      pyproject's dependencies and of this script, so a re-run only reinstalls the project;
#   3. the project as a wheel built from this checkout, installed in the root's venv like systemd/install.sh
#      does on a Pi; then tools/arm64/check.py run there under emulation (cwd /, so the checkout is not on
#      the path): one line 'arm64: <check>: ok' per check, then 'arm64: N passed, M failed'.
#
# Timings under emulation mean nothing; correctness does. Environment: MT_ARM64_CACHE (cache folder),
# MT_ARM64_FRESH=1 (build the root again even if cached), VPY (the host python with pip; default .venv's).
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
VPY=${VPY:-$repo/.venv/bin/python}
cache=${MT_ARM64_CACHE:-/var/cache/mahjong-table}
suite=bookworm
say() { echo "arm64: $*"; }
die() { echo "mahjong-table: error: test-arm64: $*" >&2; exit 2; }
t_start=$SECONDS

# -- 1. tools and binfmt_misc ---------------------------------------------------------------------------
need=()
[ -x /usr/bin/qemu-aarch64-static ] || need+=(qemu-user-static)
command -v debootstrap >/dev/null || [ -x /usr/sbin/debootstrap ] || need+=(debootstrap)
command -v update-binfmts >/dev/null || [ -x /usr/sbin/update-binfmts ] || need+=(binfmt-support)
if [ "$(id -u)" != 0 ]; then
  if [ ${#need[@]} -gt 0 ]; then
    die "needs root to install Debian's ${need[*]} and to build a chroot: run 'sudo apt-get install -y ${need[*]}' then 'sudo make test-arm64'"
  fi
  die "needs root (debootstrap, chroot, binfmt_misc): run 'sudo make test-arm64'"
fi
if [ ${#need[@]} -gt 0 ]; then
  say "installing ${need[*]} (Debian)"
  apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}" >/dev/null
fi
export PATH=$PATH:/usr/sbin:/sbin
[ -x "$VPY" ] || die "no $VPY: run 'make venv' first (make test-arm64 does)"

bfm=/proc/sys/fs/binfmt_misc
if ! grep -qs '^enabled' "$bfm/qemu-aarch64"; then
  if [ ! -e "$bfm/register" ]; then
    mount -t binfmt_misc binfmt_misc "$bfm" 2>/dev/null \
      || die "cannot mount binfmt_misc on $bfm (a container without the privilege?): aarch64 programs cannot run here"
  fi
  update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || update-binfmts --import qemu-aarch64 >/dev/null 2>&1 || true
  if ! grep -qs '^enabled' "$bfm/qemu-aarch64"; then  # no binfmt-support entry: register it ourselves
    printf '%s' ':qemu-aarch64:M::\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00:\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff:/usr/bin/qemu-aarch64-static:F' \
      > "$bfm/register" 2>/dev/null || true
  fi
  grep -qs '^enabled' "$bfm/qemu-aarch64" || die "cannot register qemu-aarch64 in binfmt_misc ($bfm)"
fi
grep -qs '^flags:.*F' "$bfm/qemu-aarch64" \
  || die "binfmt_misc's qemu-aarch64 entry lacks flag F (fix-binary): a chroot cannot find its interpreter"

# -- 2. the arm64 root (cached) ---------------------------------------------------------------------------
# the runtime dependencies, one a line, from pyproject.toml
deps=$(python3 -c 'import tomllib; print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["project"]["dependencies"]))')
# no aarch64 (nor any Linux) wheel on PyPI since cobs 1.2.1: a Pi builds these from the sdist, so does the
# root (cobs' setup.py falls back to pure Python where there is no compiler, as in this root)
sdist_names='^(cobs)([<>=!~ ;\[]|$)'
key=$( { echo "$suite"; echo "$deps"; sed -n '/^# -- 2\./,/^# -- 3\./p' "$0"; } | sha256sum | cut -c1-16)
base=$cache/arm64-base-$suite-$( { echo "$suite"; sed -n '/^build_base()/,/^}/p' "$0"; } | sha256sum | cut -c1-16)
root=$cache/arm64-root-$key
venv=/opt/mahjong-table/.venv

# The CPU the emulator presents: a Pi 4's Cortex-A72 (ARMv8.0, the oldest the README names: a wheel built
# for newer cores dies there with SIGILL) or, MT_ARM64_CPU=cortex-a76, a Pi 5's. qemu-user 7.2 shows the
# guest the host's x86 /proc/cpuinfo, on which onnxruntime's cpuinfo library crashes (SIGSEGV on import) once
# /sys is there too: the root gets the /proc/cpuinfo the Pi has, one entry per CPU of this machine.
cpu=${MT_ARM64_CPU:-cortex-a72}
pi_cpuinfo() {
  local n i feat var part rev model
  n=$(getconf _NPROCESSORS_CONF)
  case $cpu in
    cortex-a72) feat="fp asimd evtstrm crc32 cpuid"; var=0x0; part=0xd08; rev=3
                model="Raspberry Pi 4 Model B Rev 1.5"; board=d03115 ;;
    cortex-a76) feat="fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop asimddp"
                var=0x4; part=0xd0b; rev=1; model="Raspberry Pi 5 Model B Rev 1.0"; board=c04170 ;;
    *) die "MT_ARM64_CPU=$cpu: cortex-a72 (Pi 4) or cortex-a76 (Pi 5)" ;;
  esac
  for ((i = 0; i < n; i++)); do
    printf 'processor\t: %d\nBogoMIPS\t: 108.00\nFeatures\t: %s\nCPU implementer\t: 0x41\n' "$i" "$feat"
    printf 'CPU architecture: 8\nCPU variant\t: %s\nCPU part\t: %s\nCPU revision\t: %s\n\n' "$var" "$part" "$rev"
  done
  printf 'Revision\t: %s\nSerial\t\t: 100000002929a64a\nModel\t\t: %s\n' "$board" "$model"
}

# in_root ROOT CMD...: CMD run in the arm64 root, with /proc (the Pi's cpuinfo over it), /sys and /dev
# mounted in a private mount namespace (they vanish with the command, whatever happens to it), a clean
# environment plus the emulated CPU and this machine's PIP_* settings (pip there sees the same index
# configuration as here)
in_root() {
  local r=$1; shift
  local pipenv=(); mapfile -t pipenv < <(env | grep -E '^PIP_[A-Z_]+=' || true)
  pi_cpuinfo > "$r/etc/pi-cpuinfo"
  unshare --mount --propagation private -- sh -c '
    r=$1; shift
    mount -t proc proc "$r/proc" && mount --bind "$r/etc/pi-cpuinfo" "$r/proc/cpuinfo" &&
      mount -t sysfs sysfs "$r/sys" && mount --rbind /dev "$r/dev" || exit 97
    exec chroot "$r" "$@"
  ' in_root "$r" /usr/bin/env -i HOME=/root LANG=C.UTF-8 PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin \
    QEMU_CPU="$cpu" "${pipenv[@]}" "$@"
}
quiet_pip() { grep -v "is ignored: it is neither" >&2 || true; }  # this machine's optional local indexes

mirror() {  # the Debian mirror apt uses here (deb822 .sources or one-line sources.list), else deb.debian.org
  python3 - "$suite" <<'EOF'
import glob, re, sys
suite = sys.argv[1]
for f in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")) + ["/etc/apt/sources.list"] \
        + sorted(glob.glob("/etc/apt/sources.list.d/*.list")):
    try:
        text = open(f).read()
    except OSError:
        continue
    if f.endswith(".sources"):
        for stanza in re.split(r"\n\s*\n", text):
            kv = dict(re.findall(r"^([A-Za-z-]+):\s*(.*)$", stanza, re.M))
            if (kv.get("Enabled", "yes") != "no" and "deb" in kv.get("Types", "").split()
                    and suite in kv.get("Suites", "").split() and "main" in kv.get("Components", "").split()):
                print(kv["URIs"].split()[0]); sys.exit()
    else:
        for line in text.splitlines():
            m = re.match(r"\s*deb\s+(?:\[[^]]*\]\s+)?(\S+)\s+(\S+)\s+(.*)", line)
            if m and m.group(2) == suite and "main" in m.group(3).split():
                print(m.group(1)); sys.exit()
print("http://deb.debian.org/debian")
EOF
}

build_base() {  # the bare system: debootstrap (its second stage runs emulated: the slow part)
  local tmp=$base.tmp url
  rm -rf "$tmp"
  url=$(mirror)
  say "building a $suite arm64 root from $url (debootstrap; once, cached)"
  nice -n 10 debootstrap --arch=arm64 --variant=minbase --include=python3,python3-venv \
    "$suite" "$tmp" "$url" > "$cache/debootstrap.log" 2>&1 \
    || { tail -20 "$cache/debootstrap.log" >&2; die "debootstrap failed (log: $cache/debootstrap.log)"; }
  rm -rf "$tmp"/var/cache/apt/archives/*.deb
  mv "$tmp" "$base"
}

build_root() {  # the base plus a venv with the runtime dependencies
  local tmp=$root.tmp wheels
  rm -rf "$tmp"
  if [ -n "${MT_ARM64_FRESH:-}" ] || [ ! -x "$base/usr/bin/python3" ]; then
    rm -rf "$base"
    build_base
  fi
  cp -a "$base" "$tmp"
  wheels=$tmp/opt/arm64-wheels
  mkdir -p "$wheels"
  # the Pi's platform: bookworm's glibc 2.36, CPython 3.11, aarch64
  local plats=(--platform manylinux2014_aarch64) m
  for m in $(seq 17 36); do plats+=(--platform "manylinux_2_${m}_aarch64"); done
  mapfile -t wdeps < <(echo "$deps" | grep -Ev "$sdist_names"; echo "setuptools>=61")
  mapfile -t sdeps < <(echo "$deps" | grep -E "$sdist_names" || true)
  say "downloading aarch64 wheels (${#wdeps[@]} requirements) and ${#sdeps[@]} sdist(s) from the package index"
  nice -n 10 "$VPY" -m pip download -q --dest "$wheels" --only-binary=:all: --python-version 3.11 \
    --implementation cp --abi cp311 "${plats[@]}" "${wdeps[@]}" 2> >(quiet_pip) \
    || die "pip download of the aarch64 wheels failed"
  if [ ${#sdeps[@]} -gt 0 ]; then
    nice -n 10 "$VPY" -m pip download -q --dest "$wheels" --no-deps --no-binary=:all: "${sdeps[@]}" 2> >(quiet_pip) \
      || die "pip download of ${sdeps[*]} (source) failed"
  fi
  local f bad=()
  for f in "$wheels"/*; do
    case "$(basename "$f")" in
      *-none-any.whl|*aarch64*.whl) ;;
      *.tar.gz|*.zip) echo "arm64: built from source inside the root: $(basename "$f")" ;;
      *) bad+=("$(basename "$f")") ;;
    esac
  done
  [ ${#bad[@]} -eq 0 ] || die "not aarch64: ${bad[*]}"
  # the root's pip sees this machine's index configuration (it installs with --no-index from the wheels)
  if [ -f /etc/pip.conf ]; then cp /etc/pip.conf "$tmp/etc/pip.conf"; fi
  if [ -d /etc/xdg/pip ]; then mkdir -p "$tmp/etc/xdg" && cp -r /etc/xdg/pip "$tmp/etc/xdg/"; fi
  if [ -f /etc/ssl/certs/ca-certificates.crt ] && [ ! -e "$tmp/etc/ssl/certs/ca-certificates.crt" ]; then
    mkdir -p "$tmp/etc/ssl/certs" && cp /etc/ssl/certs/ca-certificates.crt "$tmp/etc/ssl/certs/"
  fi
  say "installing them in the root's venv (emulated pip, no index)"
  # bookworm's own pip wheel (python3-pip-whl) installs itself into the venv and the dependencies in one
  # run; --no-compile: byte-compiling ~100 MB of packages under emulation costs minutes, and the table
  # writes each .pyc on first import anyway
  in_root "$tmp" /bin/sh -c 'v=$1; shift; pip=$(ls /usr/share/python-wheels/pip-*.whl) &&
    mkdir -p /opt/mahjong-table && python3 -m venv --without-pip "$v" &&
    "$v/bin/python" "$pip/pip" install -q --no-compile --disable-pip-version-check --no-index \
      --find-links /opt/arm64-wheels "$pip" "$@"' \
    sh "$venv" "${wdeps[@]}" "${sdeps[@]}" > "$cache/pip-root.log" 2>&1 \
    || { tail -20 "$cache/pip-root.log" >&2; die "pip inside the arm64 root failed (log: $cache/pip-root.log)"; }
  rm -rf "$root"
  mv "$tmp" "$root"
  find "$cache" -maxdepth 1 \( \( -name 'arm64-root-*' ! -name "$(basename "$root")" \) \
    -o \( -name 'arm64-base-*' ! -name "$(basename "$base")" \) \) -exec rm -rf {} +  # older keys
}

mkdir -p "$cache"
exec 9>"$cache/arm64.lock"
flock 9  # one build at a time; a second run waits and then reuses it
if [ -n "${MT_ARM64_FRESH:-}" ] || [ ! -x "$root$venv/bin/python" ]; then
  build_root
else
  say "reusing the cached root $root"
fi
t_root=$SECONDS

# -- 3. the project, then the checks ----------------------------------------------------------------------
work=$(mktemp -d "$root/tmp/mahjong-table.XXXXXX")  # one per run: runs side by side do not collide
inside=/tmp/$(basename "$work")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src"
git ls-files -z --cached --others --exclude-standard | tar -c --null -T - | tar -x -C "$work/src"
nice -n 10 "$VPY" -m pip wheel -q --no-deps -w "$work" "$work/src" > "$work/wheel.log" 2>&1 \
  || { tail -20 "$work/wheel.log" >&2; die "building the project's wheel failed"; }
cp tools/arm64/check.py "$work/check.py"
# the host's reading of the deterministic checks, for the arm64 run to compare with
"$VPY" tools/arm64/check.py --reference > "$work/reference.json"
in_root "$root" /bin/sh -c 'exec "$@" "$0"/mahjong_table-*.whl' "$inside" \
  "$venv/bin/python" -m pip install -q --no-compile --disable-pip-version-check --no-index --no-deps --force-reinstall > "$work/pip.log" 2>&1 \
  || { tail -20 "$work/pip.log" >&2; die "installing the project in the arm64 root failed"; }
rc=0
say "root ready in $((t_root - t_start)) s; the project installed in $((SECONDS - t_root)) s; checking under emulation"
in_root "$root" /bin/sh -c 'cd / && exec "$@"' sh "$venv/bin/python" "$inside/check.py" \
  --reference "$inside/reference.json" --mahjong-table "$venv/bin/mahjong-table" || rc=$?
exit $rc
