// Snapshots compressed off the page's thread. v86 runs the guest on the page's thread, and
// gzipping a 40 MiB machine there (CompressionStream works on the thread that reads it) kept
// the guest from answering a keystroke for one to three seconds each time a step opened.
import { serve } from "../shared/worker-protocol";

const handlers = serve(Promise.resolve(null), {
  gzip: (_none: null, state: ArrayBuffer): Promise<Blob> => new Response(new Blob([state]).stream().pipeThrough(new CompressionStream("gzip"))).blob(),
});

export type GzipWorker = typeof handlers;
