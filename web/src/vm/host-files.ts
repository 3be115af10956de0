// The guest's root filesystem is v86's 9p tree, and a file's bytes come from the host the first
// time the guest reads it (guest.ts): a request the 9p device answers only when the download
// is done. A machine saved meanwhile holds a request that nothing will ever answer (the
// restored guest waits on it forever), a machine restored meanwhile gets the old request's
// answer in its new queue, and a machine destroyed meanwhile is woken by it after its timer
// worker is gone. So the hosts wait for the downloads in flight before they do any of those.

interface Storage {
  load_from_server?: (...a: unknown[]) => Promise<unknown>;
}

export interface HostFiles {
  /** downloads in flight now */
  readonly pending: number;
  /**
   * Resolves true once no download is in flight and the 9p device has answered the guest
   * (a task later: its answer follows the download in microtasks), or false after `timeoutMs`.
   * The caller acts in the same turn: the guest's CPU runs in tasks, so it asks nothing new
   * before then.
   */
  idle(timeoutMs: number): Promise<boolean>;
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
  return {
    get pending() {
      return pending;
    },
    async idle(timeoutMs: number): Promise<boolean> {
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
  };
}
