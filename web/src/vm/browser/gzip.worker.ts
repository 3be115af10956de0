// Snapshots compressed off the page's thread. v86 runs the guest on the page's thread, and
// gzipping a 40 MiB machine there (CompressionStream works on the thread that reads it) kept
// the guest from answering a keystroke for one to three seconds each time a step opened.
//
// One worker per snapshot (snapshot.ts gzip()). While it lives it holds a Web Lock the page
// named: the lock is let go only when the page ends the worker after its answer, or when the
// worker ends without one (closed, killed with its process), and the page learns which at once.
export interface GzipRequest {
  state: ArrayBuffer;
  /** the Web Lock to hold while this worker lives; null where the browser has none (an http: page off localhost) */
  lock: string | null;
}

export type GzipReply = { locked: true } | { gz: Blob } | { error: string };

const scope = self as unknown as Worker;

async function answer(state: ArrayBuffer): Promise<void> {
  try {
    const gz = await new Response(new Blob([state]).stream().pipeThrough(new CompressionStream("gzip"))).blob();
    scope.postMessage({ gz } satisfies GzipReply);
  } catch (err) {
    scope.postMessage({ error: err instanceof Error ? err.message : String(err) } satisfies GzipReply);
  }
}

scope.onmessage = (e: MessageEvent<GzipRequest>) => {
  const { state, lock } = e.data;
  if (!lock) return void answer(state);
  void navigator.locks.request(lock, async () => {
    scope.postMessage({ locked: true } satisfies GzipReply);
    await answer(state);
    await new Promise(() => undefined); // held until the page ends this worker
  });
};
