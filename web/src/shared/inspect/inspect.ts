// Inspectors over real disk images (wasm/src/*/inspect.c): bytes in, a typed report out.
// The same call serves the CLI (`fslab inspect`), the tests and, in a worker, the page.

import type { InspectModule } from "@wasm/inspect.mjs";
import { cString } from "../wasm-mem";

export class InspectError extends Error {}

/** A run of clusters: [first cluster, count]. */
export type Run = [number, number];

/**
 * A report as the inspect module returns it: `fs` names the format, and the format's topic
 * declares the rest (topics/<fs>/inspect-report.ts).
 */
export interface InspectedReport {
  fs: string;
}

/** A report whose inspector lists what is wrong (ext4, F2FS): one phrase each, the first eight, then how many more. */
export function listedDamage(r: { damage: string[]; damage_more: number }): string[] {
  return r.damage_more ? [...r.damage, `${r.damage_more} more`] : r.damage;
}

/**
 * Detects the filesystem in `image` and parses it; throws InspectError naming what is wrong.
 * `R`: the report the caller expects (its topic's), unchecked beyond `fs`.
 */
export function inspectImage<R extends InspectedReport = InspectedReport>(m: InspectModule, image: Uint8Array): R {
  const ptr = m._fx_malloc(Math.max(1, image.length));
  if (!ptr) throw new InspectError(`cannot hold a ${image.length}-byte image in wasm memory`);
  try {
    m.HEAPU8.set(image, ptr);
    const ret = m._fx_inspect(ptr, image.length);
    if (ret < 0) throw new InspectError(cString(m, m._fx_inspect_error()));
    return JSON.parse(cString(m, m._fx_inspect_report()));
  } finally {
    m._fx_free(ptr);
  }
}
