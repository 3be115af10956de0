// How the root filesystem's files are stored under dist/rootfs/ (and vm/rootfs/ on the site):
// a file of at most ROOTFS_CHUNK bytes as <sha256>.zst, a larger one as pieces of ROOTFS_CHUNK
// bytes, <sha256>-0.zst, <sha256>-1.zst, ..., each compressed on its own. v86 fetches a file
// whole the first time the guest reads any of it; for the large ones (libc, bash, fio, the
// mkfs tools) the hosts fetch the piece read (host-files.ts), and the rest of the file beside it
// when the read is from the start, so a page faulted in after a restore costs one piece, not
// the whole file, and a program's first run still waits for one round trip.
// (web/src/vm/machine/host-files.ts reads them; fs2json.mjs writes them; ../manifest.mjs checks them.)
// Plain JavaScript, for the build scripts; chunks.d.mts gives the page its types.

/**
 * One piece. A page fault asks 9p for its page alone (/init sets the root's readahead to one
 * page), so this is a trade: a page faulted in after a restore costs about 50 KB of zstd, and
 * libc (2.2 MB) is 17 requests when a program opens it.
 */
export const ROOTFS_CHUNK = 128 * 1024;

/** The name under rootfs/ of piece `i` of the file whose content name is `name` (<sha256>.zst). */
export function rootfsChunkName(name, i) {
  return `${name.slice(0, -".zst".length)}-${i}.zst`;
}

/** The names under rootfs/ that hold a file of `size` bytes whose content name is `name`. */
export function rootfsStoredNames(name, size) {
  if (size <= ROOTFS_CHUNK) return [name];
  return Array.from({ length: Math.ceil(size / ROOTFS_CHUNK) }, (_, i) => rootfsChunkName(name, i));
}
