// The guest's root filesystem is v86's 9p tree, and a file's bytes come from the host the first
// time the guest reads it (guest.ts): a request the 9p device answers only when the download
// is done. A machine saved meanwhile holds a request that nothing will ever answer (the
// restored guest waits on it forever), a machine restored meanwhile gets the old request's
// answer in its new queue, and a machine destroyed meanwhile is woken by it after its timer
// worker is gone. So the hosts wait for the downloads in flight before they do any of those.

import { ROOTFS_CHUNK, rootfsChunkName } from "../../../../kernel-image/rootfs/chunks.mjs";

/**
 * How long a save, restore or teardown waits for the downloads in flight with none of them
 * ending: while they end, one after another (a program's pieces on a busy machine), it waits
 * on, up to WAIT_CAP times that in all (a guest that goes on reading file after file).
 */
const WAIT_MS = 10_000;
const WAIT_CAP = 6;

/** v86's server file storage (src/browser/filestorage.js, ServerFileStorageWrapper). */
interface Storage {
  /** fetch baseurl + name, un-zstd it to `size` bytes, keep it in `storage` under that name */
  load_from_server?: (name: string, size: number) => Promise<Uint8Array>;
  /** bytes of the file `name`: from `storage`, or the whole file from the server */
  read?: (name: string, offset: number, count: number, size: number) => Promise<Uint8Array>;
  /** the files fetched so far (MemoryFileStorage) */
  storage?: { read(name: string, offset: number, count: number): Promise<Uint8Array | null> };
}

const ROOT_FILE = /^[0-9a-f]{64}\.zst$/;

export interface HostFiles {
  /** downloads in flight now */
  readonly pending: number;
  /**
   * Resolves true once no download is in flight and the 9p device has answered the guest
   * (a task later: its answer follows the download in microtasks), or false once none has
   * ended for `timeoutMs` (10 s unless given), or after six times that in all. The caller acts
   * in the same turn: the guest's CPU runs in tasks, so it asks nothing new before then.
   */
  idle(timeoutMs?: number): Promise<boolean>;
  /** idle(), or an error that says the guest is still reading: a save must not go on then. */
  readyToSave(): Promise<void>;
}

/** v86's virtio-9p device's answer buffer (src/virtio_9p.js, `replybuffer`), if this v86 has one. */
export function ninePReplyBuffer(emulator: unknown): Uint8Array | undefined {
  const reply = (emulator as { v86?: { cpu?: { devices?: { virtio_9p?: { replybuffer?: unknown } } } } }).v86?.cpu?.devices?.virtio_9p?.replybuffer;
  return reply instanceof Uint8Array ? reply : undefined;
}

/**
 * Count the 9p tree's downloads of a v86 emulator (its `fs9p.storage`, v86's server storage),
 * and read a large root file by the pieces it is stored in (rootfs/chunks.mjs).
 */
export function trackHostFiles(emulator: unknown): HostFiles {
  const storage = (emulator as { fs9p?: { storage?: Storage } }).fs9p?.storage;
  let pending = 0;
  let lastEnd = 0; // when the latest download ended (performance.now())
  const wake: Array<() => void> = [];
  if (storage?.load_from_server) {
    const load = storage.load_from_server.bind(storage);
    storage.load_from_server = async (name: string, size: number) => {
      pending++;
      try {
        return await load(name, size);
      } finally {
        pending--;
        lastEnd = performance.now();
        // a save or restore waiting hears of it a task later (the 9p device's answer follows
        // the download in microtasks); most downloads end with none waiting
        if (wake.length) setTimeout(() => wake.splice(0).forEach((w) => w()));
      }
    };
  }
  if (storage?.read && storage.load_from_server && storage.storage) {
    const readWhole = storage.read.bind(storage);
    const fetched = storage.storage;
    const loading = new Map<string, Promise<Uint8Array>>(); // one download per piece
    const piece = async (name: string, i: number, size: number): Promise<Uint8Array> => {
      const stored = rootfsChunkName(name, i);
      const have = await fetched.read(stored, 0, ROOTFS_CHUNK);
      if (have) return have;
      let p = loading.get(stored);
      if (!p) {
        p = storage.load_from_server!(stored, Math.min(ROOTFS_CHUNK, size - i * ROOTFS_CHUNK));
        loading.set(stored, p);
        void p.finally(() => loading.delete(stored)).catch(() => undefined);
      }
      return p;
    };
    storage.read = async (name: string, offset: number, count: number, size: number) => {
      if (size <= ROOTFS_CHUNK || !ROOT_FILE.test(name)) return readWhole(name, offset, count, size);
      const end = Math.min(offset + count, size);
      if (end <= offset) return new Uint8Array(0);
      const first = Math.floor(offset / ROOTFS_CHUNK);
      const last = Math.floor((end - 1) / ROOTFS_CHUNK);
      const wanted = Promise.all(Array.from({ length: last - first + 1 }, (_, k) => piece(name, first + k, size)));
      // A read from the start opens a file (exec reads the ELF header, ld.so a library's): fetch
      // the rest beside it, so a program read piece after piece (a cold boot, a tool's first run)
      // waits for one round trip, not one per piece. A read further in is a page faulted in later
      // (after a restore): its piece alone, not all of libc for one page.
      if (first === 0) for (let i = last + 1; i < Math.ceil(size / ROOTFS_CHUNK); i++) piece(name, i, size).catch(() => undefined);
      const pieces = await wanted;
      if (pieces.length === 1) return pieces[0].subarray(offset - first * ROOTFS_CHUNK, end - first * ROOTFS_CHUNK);
      const out = new Uint8Array(end - offset);
      pieces.forEach((bytes, k) => {
        const at = (first + k) * ROOTFS_CHUNK; // where this piece starts in the file
        const from = Math.max(offset, at), to = Math.min(end, at + bytes.length);
        out.set(bytes.subarray(from - at, to - at), from - offset);
      });
      return out;
    };
  }
  const files: HostFiles = {
    get pending() {
      return pending;
    },
    async idle(timeoutMs = WAIT_MS): Promise<boolean> {
      // a task first: a download that just ended has its answer sent by then
      await new Promise((r) => setTimeout(r));
      const t0 = performance.now();
      const cap = t0 + WAIT_CAP * timeoutMs;
      while (pending) {
        const left = Math.min(cap, Math.max(t0, lastEnd) + timeoutMs) - performance.now();
        if (left <= 0) return false;
        // woken as a download ends (the limit then counts from it), else at the limit
        await new Promise<void>((r) => {
          const w = () => (clearTimeout(t), r());
          const t = setTimeout(() => {
            // not woken: off the list, lest a later download's end find it there
            const i = wake.indexOf(w);
            if (i >= 0) wake.splice(i, 1);
            r();
          }, left);
          wake.push(w);
        });
      }
      return true;
    },
    async readyToSave(): Promise<void> {
      if (!(await files.idle())) throw new Error(`the guest was still reading files from the host: none arrived for ${WAIT_MS / 1000} s, or they went on arriving for ${(WAIT_CAP * WAIT_MS) / 1000} s`);
      // The 9p device builds each answer in one buffer, twice the mount's msize (256 KiB), and
      // v86 saves it with the machine: the last file bytes read, 75 KB of every saved state
      // once compressed. The guest has that answer now, and the next one is written before
      // anything reads the buffer again.
      ninePReplyBuffer(emulator)?.fill(0);
    },
  };
  return files;
}
