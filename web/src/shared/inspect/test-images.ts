// The inspectors' test images (wasm/tests/images/, made by the real mkfs tools and kernel:
// make-images.ts) and the inspect module, for the tests of each format's topic.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import type { InspectModule } from "@wasm/inspect.mjs";
import { loadCoreModule } from "../node-load";

const IMAGES = new URL("../../../../wasm/tests/images/", import.meta.url);
let tmp: string | null = null;

/** a test image's bytes, and a copy on disk for the real tools to read */
export function testImage(name: string): { bytes: Uint8Array; path: string } {
  const bytes = gunzipSync(readFileSync(new URL(`${name}.img.gz`, IMAGES)));
  tmp ??= mkdtempSync("/tmp/fslab-inspect-");
  const path = `${tmp}/${name}.img`;
  writeFileSync(path, bytes);
  return { bytes, path };
}

/** a path for a scratch file of a test, beside the images' copies */
export function scratch(file: string): string {
  tmp ??= mkdtempSync("/tmp/fslab-inspect-");
  return `${tmp}/${file}`;
}

/** How a topic's test image is made (its test-images.ts; wasm/tests/images/make-images.ts runs it). */
export interface ImageRecipe {
  /** the image's name, wasm/tests/images/<name>.img.gz: the format's topic first (exfat-4k) */
  name: string;
  /** MiB */
  mb: number;
  /** run in the guest with $dev, /mnt/i and `fill N` */
  script: string;
}

export const loadInspect = (): Promise<InspectModule> => loadCoreModule("inspect");
