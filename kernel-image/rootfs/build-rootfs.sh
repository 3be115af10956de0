#!/usr/bin/env bash
# Assembles the guest's initramfs from Debian bookworm i386 packages, without a chroot:
#
#   packages.txt --apt-get download (private i386 lists)--> .debs --dpkg-deb -x--> stage/
#   stage/ --(the listed packages' programs + the shared libraries their ELF NEEDED entries reach)--> root/
#   fio source package --gcc -m32 --build-static, libaio from libaio-dev:i386--> root/usr/bin/fio
#   the kernel's modules (MODULESDIR: build.sh's modules_install) --> root/usr/lib/modules/
#   overlay/ (init, profile, helpers), web/src/topics/*/guest/ --> root/ --fs2json.mjs--> rootfs.json + rootfs/<sha256>.zst
#
# The kernel mounts that tree as its root over virtio-9p (root=host9p, guest.ts), and v86
# fetches each file the first time the guest reads it: the saved state holds only what the
# running system touched, not the whole userland (an initramfs would sit unpacked in RAM).
#
# Usage: build-rootfs.sh WORKDIR OUTDIR MODULESDIR   (called by ../build.sh rootfs; writes
#        OUTDIR/rootfs.json, OUTDIR/rootfs/; MODULESDIR is lib/modules/<release> of modules_install)
# Writes WORKDIR/packages.lock: "name version" of every package whose files were used.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
log() { printf '\033[1m[rootfs]\033[0m %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }
[ $# = 3 ] || die "usage: build-rootfs.sh WORKDIR OUTDIR MODULESDIR"
[ -f "$3/modules.dep" ] || die "no modules.dep in $3: build the kernel first (build.sh kernel installs its modules there)"
mkdir -p "$1" "$2"
W="$(cd "$1" && pwd)"; OUT="$(cd "$2" && pwd)"; MODS="$(cd "$3" && pwd)"

# --- private apt for bookworm i386: the machine's own dpkg architectures stay untouched
APTD="$W/apt-i386"
mkdir -p "$APTD/lists/partial" "$APTD/cache/archives/partial" "$W/debs"
cat > "$APTD/sources.list" <<EOF
deb http://deb.debian.org/debian bookworm main
deb http://deb.debian.org/debian bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
deb-src http://deb.debian.org/debian bookworm main
EOF
apt_i386() {
  "$@" -o Dir::Etc::SourceList="$APTD/sources.list" -o Dir::Etc::SourceParts=/dev/null \
       -o Dir::State::Lists="$APTD/lists" -o Dir::Cache="$APTD/cache" -o Dir::State::status=/dev/null \
       -o APT::Architecture=i386 -o APT::Architectures::=i386 -o APT::Sandbox::User=root
}
log "updating the bookworm i386 package lists"
# bookworm-security's i386 index is sometimes caught mid-sync; the main suite is enough then.
apt_i386 apt-get -qq update || log "warning: some index failed to download (mirror sync?); continuing"

mapfile -t WANT < <(grep -vE '^\s*(#|$)' "$HERE/packages.txt")
# The Depends closure: every NEEDED library is found in it (only what is reached gets shipped).
mapfile -t CLOSURE < <(apt_i386 apt-cache depends --recurse --no-recommends --no-suggests \
    --no-conflicts --no-breaks --no-replaces --no-enhances "${WANT[@]}" libaio1 libaio-dev libc-bin libc6-dev linux-libc-dev \
    | grep -v '^ ' | grep -v '^<' | sort -u)
[ ${#CLOSURE[@]} -gt 0 ] || die "apt could not resolve ${WANT[*]} for i386"
log "downloading ${#CLOSURE[@]} packages"
(cd "$W/debs" && apt_i386 apt-get -qq download "${CLOSURE[@]}")

rm -rf "$W/stage" "$W/root" && mkdir -p "$W/stage" "$W/root"
: > "$W/packages.lock.all"
for deb in "$W"/debs/*.deb; do
  name=$(dpkg-deb -f "$deb" Package); ver=$(dpkg-deb -f "$deb" Version)
  # newest version wins if an older .deb is still in the download cache
  mkdir -p "$W/stage/$name" && dpkg-deb -x "$deb" "$W/stage/$name"
  echo "$name $ver" >> "$W/packages.lock.all"
done

# --- merged-/usr root: /bin, /sbin, /lib are links into /usr as on a current Debian
R="$W/root"
# /mnt/host: the host's share, a directory of the 9p root the host reads (vm-host.ts readFile)
mkdir -p "$R"/usr/{bin,sbin,lib} "$R"/{dev,proc,sys,tmp,run,mnt/host,root,etc,var/tmp}
ln -s usr/bin "$R/bin"; ln -s usr/sbin "$R/sbin"; ln -s usr/lib "$R/lib"
chmod 1777 "$R/tmp" "$R/var/tmp"
USED=()
# copy_tree PKG: the package's programs and data, with /bin,/sbin,/lib folded into /usr
copy_pkg() {
  local pkg="$1" src="$W/stage/$1"
  [ -d "$src" ] || die "package $pkg was not downloaded"
  for d in bin sbin lib usr/bin usr/sbin usr/lib; do
    [ -d "$src/$d" ] || continue
    local dst="$R/usr/${d#usr/}"
    mkdir -p "$dst" && cp -a "$src/$d/." "$dst/"
  done
  [ -d "$src/etc" ] && cp -a "$src/etc/." "$R/etc/"
  USED+=("$pkg")
}
for p in "${WANT[@]}"; do copy_pkg "$p"; done
# terminfo so bash/readline and the pagers know xterm (what xterm.js speaks)
mkdir -p "$R/usr/share/terminfo"
cp -a "$W/stage/ncurses-base/usr/share/terminfo/." "$R/usr/share/terminfo/" 2>/dev/null || true
cp -a "$W/stage/ncurses-base/lib/terminfo/." "$R/usr/share/terminfo/" 2>/dev/null || true

# C.UTF-8, so tools print non-ASCII file names (the VFAT codepage lab) instead of '?'
[ -d "$W/stage/libc-bin/usr/lib/locale/C.utf8" ] || die "libc-bin did not provide the C.utf8 locale"
mkdir -p "$R/usr/lib/locale" && cp -a "$W/stage/libc-bin/usr/lib/locale/C.utf8" "$R/usr/lib/locale/"
USED+=(libc-bin)

# --- shared libraries: follow NEEDED from every ELF in root/ until nothing new is needed
find_lib() {
  local soname="$1" pkgdir
  for pkgdir in "$W"/stage/*; do
    for d in lib/i386-linux-gnu usr/lib/i386-linux-gnu lib usr/lib; do
      if [ -e "$pkgdir/$d/$soname" ]; then echo "$pkgdir/$d/$soname"; return 0; fi
    done
  done
  return 1
}
LIBDIR="$R/usr/lib/i386-linux-gnu"; mkdir -p "$LIBDIR"
while :; do
  added=0
  while IFS= read -r soname; do
    [ -e "$LIBDIR/$soname" ] && continue
    src=$(find_lib "$soname") || die "no package in the closure provides $soname"
    cp -L "$src" "$LIBDIR/$soname"
    pkg=$(echo "${src#"$W"/stage/}" | cut -d/ -f1); USED+=("$pkg")
    added=1
  done < <(find "$R" -type f -perm -u+x -o -type f -name '*.so*' | xargs -r file -L | grep -F 'ELF 32-bit' \
           | cut -d: -f1 | xargs -r readelf -d 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort -u)
  [ $added = 1 ] || break
done
# the dynamic loader at the path every i386 binary names
cp -L "$(find_lib ld-linux.so.2)" "$R/usr/lib/ld-linux.so.2"

# --- fio, built statically (Debian's i386 fio links librbd, gluster, rdma: a 60 MB closure)
build_fio() {
  local dir="$W/fio-src" sys="$W/sysroot"
  if [ ! -x "$dir/fio" ]; then
    log "building fio statically from Debian's source package"
    rm -rf "$dir" "$sys" "$W/fio-dl" && mkdir -p "$W/fio-dl" "$sys"
    (cd "$W/fio-dl" && apt_i386 apt-get -qq source --download-only fio)
    dpkg-source -x --no-check "$W"/fio-dl/fio_*.dsc "$dir" >/dev/null
    for p in libaio1 libaio-dev; do dpkg-deb -x "$(ls "$W"/debs/${p}_*.deb | tail -n1)" "$sys"; done
    (cd "$dir" && LDFLAGS="-m32 -L$sys/usr/lib/i386-linux-gnu" ./configure --cc=gcc \
        --extra-cflags="-m32 -I$sys/usr/include" --build-static --disable-native --disable-numa \
        --disable-rdma --disable-rados --disable-rbd --disable-http --disable-gfapi --disable-libnfs \
        --disable-pmem --disable-xnvme --disable-libzbc --disable-tcmalloc --disable-dfs --disable-lex \
        > configure.log 2>&1 && grep -q 'Linux AIO support *yes' configure.log) \
      || die "fio configure failed or found no libaio (see $dir/configure.log)"
    nice make -s -C "$dir" -j"$(nproc)" fio >/dev/null 2>&1 || die "fio build failed"
    strip "$dir/fio"
    basename "$(ls "$W"/fio-dl/fio_*.dsc)" .dsc | sed 's/_/ /;s/^fio/fio-source/' > "$W/fio.version"
  fi
  cp "$dir/fio" "$R/usr/bin/fio"
}
build_fio

# --- busybox applets for whatever the real packages don't provide (real tools win)
BB="$R/usr/bin/busybox"
[ -x "$BB" ] || die "busybox-static did not provide /bin/busybox"
"$BB" --list-full | while IFS= read -r path; do
  name=$(basename "$path")
  [ -e "$R/usr/bin/$name" ] || [ -e "$R/usr/sbin/$name" ] || [ -L "$R/usr/bin/$name" ] && continue
  ln -s busybox "$R/usr/bin/$name"
done

# --- the kernel's modules (ext2, ext4, jbd2, F2FS...): the kernel runs /bin/modprobe (busybox's,
# linked above; CONFIG_MODPROBE_PATH) for fs-ext4 at the first mount, which reads modules.dep
# and modules.alias and loads the .ko from this tree over 9p
mkdir -p "$R/usr/lib/modules" && cp -a "$MODS" "$R/usr/lib/modules/"
[ -L "$R/usr/bin/modprobe" ] || die "busybox did not provide modprobe"

# --- our files: /init, profile, guest helpers; then each topic's own (web/src/topics/<topic>/guest/:
# its fslab-bench scenarios, its fslab-trace set), found by folder
cp -a "$HERE/overlay/." "$R/"
# (mode 644 whatever the checkout's umask made them: the root's hashes must not depend on it)
for d in "$HERE"/../../web/src/topics/*/guest; do
  [ -d "$d" ] || continue
  (cd "$d" && find . -type f) | while IFS= read -r f; do install -D -m 644 "$d/$f" "$R/$f"; done
done
chmod 755 "$R/init" "$R"/usr/local/bin/* "$R"/usr/local/sbin/* 2>/dev/null || true

# --- drop what a diskless teaching VM never reads
rm -rf "$R"/usr/share/{doc,man,info,locale,lintian,bash-completion} "$R"/usr/lib/systemd "$R"/usr/lib/udev \
       "$R"/etc/{init.d,cron.*,logrotate.d,systemd} "$R"/usr/lib/i386-linux-gnu/*.a
find "$R" -type f -name '*.pc' -delete

# --- a C compiler for labs' code steps: tcc (in packages.txt) with glibc's start files, its
# libc.so link script and libc_nonshared.a (tcc links programs against libc.so.6, no static libc),
# and the headers a C program for the standard library and POSIX reaches: C_HEADERS below and
# what they include, found by the host's gcc -M over the staged trees (126 of the 1,400 headers in
# libc6-dev and linux-libc-dev; each file is an entry of rootfs.json, which the page loads).
C_HEADERS="assert ctype errno fcntl float getopt inttypes limits math signal stdalign stdarg stdbool
  stddef stdint stdio stdlib string strings time unistd sys/stat sys/types sys/time sys/wait"
copy_c_headers() {
  local libc="$W/stage/libc6-dev" kh="$W/stage/linux-libc-dev" tccinc="$R/usr/lib/i386-linux-gnu/tcc/include"
  local h f
  [ -d "$tccinc" ] || die "tcc did not provide its include directory"
  for f in crt1.o crti.o crtn.o libc.so libc_nonshared.a; do cp -a "$libc/usr/lib/i386-linux-gnu/$f" "$LIBDIR/"; done
  # libm.so names /lib/i386-linux-gnu/libm.so.6, which the root has (mawk needs it)
  cp -a "$libc/usr/lib/i386-linux-gnu/libm.so" "$LIBDIR/"
  [ -e "$LIBDIR/libm.so.6" ] || die "no libm.so.6 in the root for libm.so to name"
  : > "$W/c-headers.c"
  for h in $C_HEADERS; do echo "#include <$h.h>" >> "$W/c-headers.c"; done
  gcc -m32 -nostdinc -isystem "$tccinc" -isystem "$libc/usr/include/i386-linux-gnu" -isystem "$libc/usr/include" \
      -isystem "$kh/usr/include/i386-linux-gnu" -isystem "$kh/usr/include" -MG -M "$W/c-headers.c" 2>/dev/null \
    | tr ' \\' '\n\n' | grep -E "^$W/stage/(libc6-dev|linux-libc-dev)/usr/include/" | sort -u \
    | while IFS= read -r f; do
        mkdir -p "$R/usr/include/$(dirname "${f#*/usr/include/}")" && cp "$f" "$R/usr/include/${f#*/usr/include/}"
      done
  [ -f "$R/usr/include/stdio.h" ] && [ -f "$R/usr/include/i386-linux-gnu/asm/errno.h" ] \
    || die "the C headers' closure lacks stdio.h or asm/errno.h"
  USED+=(libc6-dev linux-libc-dev)
}
copy_c_headers

# --- lock file: the versions of the packages whose files we shipped
printf '%s\n' "${USED[@]}" | sort -u | while IFS= read -r p; do grep -m1 "^$p " "$W/packages.lock.all"; done > "$W/packages.lock"
cat "$W/fio.version" >> "$W/packages.lock"

# --- pack: sorted names, no times or owners, so the same inputs give the same bytes
log "root: $(du -sh "$R" | cut -f1), $(wc -l < "$W/packages.lock") packages; $(node "$HERE/fs2json.mjs" "$R" "$OUT")"
