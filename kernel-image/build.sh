#!/usr/bin/env bash
# Builds the fslab guest from Debian packages only, into kernel-image/dist/:
#
#   linux-source-7.2 (sid, arch-independent tarball, downloaded, never installed)
#     + config/fslab.config + patches/*.patch  --make ARCH=i386-->  dist/bzImage
#   bookworm i386 .debs (rootfs/packages.txt, unpacked with dpkg-deb -x)
#     + fio built statically from Debian's source + rootfs/overlay/
#     --rootfs/fs2json.mjs-->  dist/rootfs.json + dist/rootfs/<sha256>.zst (the root, over 9p)
#   dist/manifest.json: package versions and sha256 of every input and output
#
#   a cold boot in Node (v86) --save_state, xz -9e--> dist/state.bin.xz + state.json
#
# Usage: kernel-image/build.sh [all|kernel|rootfs|state|manifest] [--debug]   (npm run kernel = all)
# Work files live in kernel-image/build/ (git-ignored); a second run reuses them.
#
# --debug: the same kernel with config/debug.config merged last (lockdep, DEBUG_ATOMIC_SLEEP,
# F2FS_CHECK_FS, DEBUG_LIST, the race-widening knobs), built in build/kbuild-debug into
# kernel-image/dist-debug/ (git-ignored) beside a copy of dist/'s BIOS. It has no saved state:
# NodeVm boots it cold (FSLAB_DIST=kernel-image/dist-debug) on dist/'s root filesystem.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
WORK="${FSLAB_KBUILD:-$HERE/build}"
DEBUG=0
STEP=all
for a in "$@"; do
  case "$a" in --debug) DEBUG=1 ;; *) STEP="$a" ;; esac
done
if [ $DEBUG = 1 ]; then DIST="$HERE/dist-debug"; else DIST="$HERE/dist"; fi
JOBS="${JOBS:-$(nproc)}"
KVER_PKG=linux-source-7.2
mkdir -p "$WORK" "$DIST"

log() { printf '\033[1m[kernel-image]\033[0m %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }
[ "$(id -u)" = 0 ] || die "run as root (apt-get and dpkg --add-architecture need it)"

need_host_tools() {
  local missing=()
  for p in build-essential flex bison bc libelf-dev libssl-dev cpio xz-utils zstd gcc-multilib dpkg-dev file seabios kmod; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    log "installing host tools: ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
}

# The machine's own mirror, read from its apt sources, so the sid list points at the same place.
debian_mirror() {
  local m
  # only live lines: deb822 sources carry commented-out snapshot URLs
  m=$(grep -rhE '^[[:space:]]*(deb|URIs:)' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null \
      | grep -oE 'https?://[^ ]+/debian/?' | grep -v security | head -n1 || true)
  echo "${m:-http://deb.debian.org/debian}"
}

# apt-get against a private sid list: private lists and cache, so the machine's apt never sees sid.
sid_apt() {
  local d="$WORK/apt-sid"
  mkdir -p "$d/lists/partial" "$d/cache/archives/partial"
  echo "deb $(debian_mirror) sid main" > "$d/sources.list"
  apt-get -o Dir::Etc::SourceList="$d/sources.list" -o Dir::Etc::SourceParts=/dev/null \
          -o Dir::State::Lists="$d/lists" -o Dir::Cache="$d/cache" \
          -o APT::Sandbox::User=root "$@"
}

fetch_kernel() {
  local src="$WORK/linux"
  if [ -f "$src/Makefile" ]; then return; fi
  log "fetching $KVER_PKG from sid"
  sid_apt -qq update
  (cd "$WORK" && rm -f ${KVER_PKG}_*.deb && sid_apt -qq download "$KVER_PKG")
  local deb; deb=$(ls "$WORK"/${KVER_PKG}_*.deb)
  dpkg-deb -f "$deb" Version > "$WORK/kernel-source.version"
  rm -rf "$WORK/linux.tmp" && mkdir -p "$WORK/linux.tmp"
  dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/$KVER_PKG.tar.xz" | tar -xJ -C "$WORK/linux.tmp"
  mv "$WORK/linux.tmp/$KVER_PKG" "$src" && rmdir "$WORK/linux.tmp"
  rm -f "$deb"
}

build_kernel() {
  need_host_tools
  fetch_kernel
  local src="$WORK/linux" out="$WORK/kbuild" fragments=("$HERE/config/fslab.config")
  if [ $DEBUG = 1 ]; then out="$WORK/kbuild-debug"; fragments+=("$HERE/config/debug.config"); fi
  # The tree keeps a copy of the patches applied to it; a changed set is swapped by
  # reverting the old patches and applying the new ones, so only touched files rebuild.
  local applied="$src/.fslab-applied" p
  local patches=()
  shopt -s nullglob; patches=("$HERE"/patches/*.patch); shopt -u nullglob
  if ! same_patches "$applied" "${patches[@]}"; then
    local old=()
    shopt -s nullglob; old=("$applied"/*.patch); shopt -u nullglob
    for ((i=${#old[@]}-1; i>=0; i--)); do
      log "reverting $(basename "${old[i]}")"
      patch -d "$src" -p1 -R --quiet < "${old[i]}"
    done
    rm -rf "$applied"; mkdir -p "$applied"
    for p in "${patches[@]}"; do
      log "applying $(basename "$p")"
      patch -d "$src" -p1 --forward --quiet < "$p"
      cp "$p" "$applied/"
    done
  fi
  mkdir -p "$out"
  log "configuring (tinyconfig + ${fragments[*]##*/})"
  make -s -C "$src" O="$out" ARCH=i386 tinyconfig >/dev/null
  "$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "${fragments[@]}" >/dev/null
  make -s -C "$src" O="$out" ARCH=i386 olddefconfig >/dev/null
  # each fragment's lines must hold, except where a later fragment sets the same option
  local i later
  for ((i=0; i<${#fragments[@]}; i++)); do
    later=$(cat "${fragments[@]:i+1}" /dev/null | grep -oE '^(# )?CONFIG_[A-Z0-9_]+' | grep -oE 'CONFIG_[A-Z0-9_]+' || true)
    check_config "$out/.config" "${fragments[i]}" "$later"
  done
  # the release kernel's modules in the same run: TRIM_UNUSED_KSYMS keeps the exports they use
  local targets=(bzImage); [ $DEBUG = 1 ] || targets+=(modules)
  log "building ${targets[*]} with -j$JOBS (a clean build takes ~10 minutes on 2 cores)"
  nice make -s -C "$src" O="$out" ARCH=i386 -j"$JOBS" "${targets[@]}" KBUILD_BUILD_USER=fslab \
       KBUILD_BUILD_HOST=fslab KBUILD_BUILD_TIMESTAMP="$(date -u -d @0)"
  cp "$out/arch/x86/boot/bzImage" "$DIST/bzImage"
  if [ $DEBUG = 1 ]; then
    cp "$HERE/dist/bios.bin" "$HERE/dist/vgabios-stdvga.bin" "$DIST/"
    log "debug kernel: $(stat -c %s "$DIST/bzImage") bytes in $DIST (no saved state: it boots cold)"
    return
  fi
  make -s -C "$src" O="$out" ARCH=i386 kernelrelease > "$WORK/kernel.release"
  log "kernel $(cat "$WORK/kernel.release"): $(stat -c %s "$DIST/bzImage") bytes"
  # the modules (fslab.config says which), installed with their modules.dep and modules.alias
  # (the host's depmod) into build/modules/, which build_rootfs copies into the root
  rm -rf "$WORK/modules"
  make -s -C "$src" O="$out" ARCH=i386 INSTALL_MOD_PATH="$WORK/modules" INSTALL_MOD_STRIP=1 \
       DEPMOD=/sbin/depmod modules_install
  local mods="$WORK/modules/lib/modules/$(cat "$WORK/kernel.release")"
  [ -s "$mods/modules.dep" ] || die "modules_install wrote no modules.dep (is kmod's depmod installed?)"
  rm -f "$mods/build" "$mods/source"
  log "modules: $(cd "$mods" && find . -name '*.ko' | sed 's|.*/||' | sort | tr '\n' ' ')"
}

# Are the patches applied to the tree (copies in $1) exactly the given files?
same_patches() {
  local dir="$1"; shift
  [ -d "$dir" ] || return 1
  [ "$(ls "$dir" | wc -l)" = "$#" ] || return 1
  local p; for p in "$@"; do cmp -s "$p" "$dir/$(basename "$p")" || return 1; done
}

# Every option the fragment asks for must be in the final config: olddefconfig silently drops
# options whose dependencies are missing, and a missing filesystem would only show in the VM.
# $3: options a later fragment overrides (one per line), not checked against this one.
check_config() {
  local cfg="$1" fragment="$2" overridden="${3:-}" bad=0 line opt val
  while IFS= read -r line; do
    if [[ "$line" =~ ^(CONFIG_[A-Z0-9_]+)=(.*)$ ]]; then
      opt=${BASH_REMATCH[1]}; val=${BASH_REMATCH[2]}
      grep -qxF "$opt" <<< "$overridden" && continue
      grep -qxF "$opt=$val" "$cfg" || { log "config: wanted $opt=$val, got: $(grep -E "^(# )?$opt[= ]" "$cfg" || echo unset)"; bad=1; }
    elif [[ "$line" =~ ^#\ (CONFIG_[A-Z0-9_]+)\ is\ not\ set$ ]]; then
      opt=${BASH_REMATCH[1]}
      grep -qxF "$opt" <<< "$overridden" && continue
      grep -qE "^$opt=" "$cfg" && { log "config: wanted $opt unset, got: $(grep -E "^$opt=" "$cfg")"; bad=1; }
    fi
  done < "$fragment"
  [ $bad = 0 ] || die "config fragment ${fragment##*/} not satisfied (see above)"
}

build_rootfs() {
  need_host_tools
  local release; release=$(kernel_fact kernel.release release)
  # a rootfs-only rebuild in a fresh work dir: the unchanged kernel's modules from dist/
  if [ ! -d "$WORK/modules/lib/modules/$release" ]; then
    mkdir -p "$WORK/rootfs"
    node "$HERE/rootfs/modules-from-dist.mjs" "$DIST" "$release" "$WORK/modules/lib/modules/$release"
  fi
  "$HERE/rootfs/build-rootfs.sh" "$WORK/rootfs" "$DIST" "$WORK/modules/lib/modules/$release"
  # v86 boots a bzImage through a real BIOS: Debian's SeaBIOS and its VGA BIOS
  cp /usr/share/seabios/bios.bin /usr/share/seabios/vgabios-stdvga.bin "$DIST/"
}

# The instant start: dist/state.bin.xz, saved from a cold boot in Node by the page's Node host
# (web/src/vm/node/save-state.ts)
save_state() {
  command -v xz >/dev/null || die "xz is missing (xz-utils)"
  (cd "$HERE/.." && { [ -d node_modules/v86 ] || npm ci --no-audit --no-fund --loglevel=error; } \
    && node --import tsx web/src/vm/node/save-state.ts)
}

# What the last kernel build recorded; after a rootfs-only rebuild in a fresh work dir, what
# the manifest already says of the unchanged bzImage.
kernel_fact() {
  if [ -f "$WORK/$1" ]; then cat "$WORK/$1"
  else node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])).kernel[process.argv[2]])' "$DIST/manifest.json" "$2"
  fi
}

write_manifest() {
  log "writing dist/manifest.json"
  node "$HERE/manifest.mjs" write \
    --kernel-release "$(kernel_fact kernel.release release)" \
    --kernel-source-version "$(kernel_fact kernel-source.version source_version)" \
    --packages "$WORK/rootfs/packages.lock"
}

if [ $DEBUG = 1 ]; then
  case "$STEP" in
    all|kernel) build_kernel ;;
    *) die "--debug builds only the kernel (all|kernel)" ;;
  esac
  exit 0
fi
case "$STEP" in
  fetch) need_host_tools; fetch_kernel ;;
  kernel) build_kernel ;;
  rootfs) build_rootfs ;;
  state) save_state ;;
  manifest) write_manifest ;;
  all) build_kernel; build_rootfs; save_state; write_manifest ;;
  *) die "unknown step '$STEP' (all|fetch|kernel|rootfs|state|manifest)" ;;
esac
