// The guest's root filesystem is v86's 9p tree, and a file's bytes come from the host the first
// time the guest reads it (guest.ts): a request the 9p device answers only when the download
// is done. A machine saved meanwhile holds a request that nothing will ever answer (the
// restored guest waits on it forever), a machine restored meanwhile gets the old request's
// answer in its new queue, and a machine destroyed meanwhile is woken by it after its timer
// worker is gone. So the hosts wait for the downloads in flight before they do any of those.

/** How long a save, restore or teardown waits for the downloads in flight. */
const WAIT_MS = 10_000;

interface Storage {
  load_from_server?: (...a: unknown[]) => Promise<unknown>;
}

export interface HostFiles {
  /** downloads in flight now */
  readonly pending: number;
  /**
   * Resolves true once no download is in flight and the 9p device has answered the guest
   * (a task later: its answer follows the download in microtasks), or false after `timeoutMs`
   * (10 s unless given). The caller acts in the same turn: the guest's CPU runs in tasks, so it
   * asks nothing new before then.
   */
  idle(timeoutMs?: number): Promise<boolean>;
  /** idle(), or an error that says the guest is still reading: a save must not go on then. */
  readyToSave(): Promise<void>;
}

/** Count the 9p tree's downloads of a v86 emulator (its `fs9p.storage`, v86's server storage). */
export function trackHostFiles(emulator: unknown): HostFiles {
  const storage = (emulator as { fs9p?: { storage?: Storage } }).fs9p?.storage;
  let pending = 0;
  const wake: Array<() => void> = [];
  if (storage?.load_from_server) {
    const load = storage.load_from_server.bind(storage);
    storage.load_from_server = async (...a: unknown[]) => {
      pending++;
      try {
        return await load(...a);
      } finally {
        pending--;
        if (!pending) setTimeout(() => wake.splice(0).forEach((w) => w()));
      }
    };
  }
  const files: HostFiles = {
    get pending() {
      return pending;
    },
    async idle(timeoutMs = WAIT_MS): Promise<boolean> {
      const until = performance.now() + timeoutMs;
      // a task first: a download that just ended has its answer sent by then
      await new Promise((r) => setTimeout(r));
      while (pending) {
        const left = until - performance.now();
        if (left <= 0) return false;
        await new Promise<void>((r) => {
          const t = setTimeout(r, left);
          wake.push(() => (clearTimeout(t), r()));
        });
      }
      return true;
    },
    async readyToSave(): Promise<void> {
      if (!(await files.idle())) throw new Error(`the guest was still reading a file from the host after ${WAIT_MS / 1000} s`);
    },
  };
  return files;
}
