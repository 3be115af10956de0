// A lab kept for offline use once its machine answered (LabPage.tsx): what a restore needs and
// the lab's text, in the service worker's caches.
import { rootfsFiles, ROOTFS_DIR, ROOTFS_JSON, STATE_FILE } from "../machine/guest";
import { siteUrl } from "../../shared/site";
import { v86WasmUrl, vmUrl } from "./fetch-ahead";

const ROOTFS_KEEP_DELAY_MS = 3000;

/** The caches the service worker serves vm/ and labs/ from (web/vite.config.ts). */
const VM_CACHE = "fslab-vm";
const LABS_CACHE = "fslab-labs";

/**
 * Keep what a lab needs to come back offline in the service worker's caches: the files a
 * restore needs, and the lab's text with the list of labs, whether or not the service worker
 * controlled the page when they were fetched (a first visit straight to a lab). A class on a
 * flaky network then reloads without the network. Nothing to do without the Cache API.
 */
export async function keepLabOffline(labId: string): Promise<number> {
  if (typeof caches === "undefined" || !navigator.serviceWorker) return 0;
  let added = 0;
  const keep = async (cacheName: string, url: string, always: boolean) => {
    const cache = await caches.open(cacheName);
    if (!always && (await cache.match(url))) return;
    // the lab's text asked of the server again (an instructor may have changed it); a VM file's
    // URL carries its hash or v86's version, so the copy the page has just downloaded, in the
    // HTTP cache however stale its headers say it is, is that file: no second request (a server
    // that sends no Last-Modified or ETag would otherwise send the 4.7 MB state again)
    const r = await fetch(url, { cache: always ? "no-cache" : "force-cache" });
    if (r.ok) {
      await cache.put(url, r);
      added++;
    }
  };
  for (const path of ["labs/index.json", `labs/${labId}/lab.md`]) await keep(LABS_CACHE, siteUrl(path), true);
  await keep(VM_CACHE, vmUrl(STATE_FILE), false);
  await keep(VM_CACHE, v86WasmUrl(), false);
  // the root filesystem's files, which the guest fetches the first time it reads each: all of
  // them, one at a time, so that a tool first run offline is there too. After a pause: the
  // learner's first commands (and the files they fetch) go first.
  await new Promise((r) => setTimeout(r, ROOTFS_KEEP_DELAY_MS));
  // (npm run bench page counts a lab page's own fetches until here: the rest is this copy)
  performance.mark("fslab:keep-offline-rootfs");
  await keep(VM_CACHE, vmUrl(ROOTFS_JSON), false);
  const listed = await (await caches.open(VM_CACHE)).match(vmUrl(ROOTFS_JSON));
  const tree = await (listed ?? (await fetch(vmUrl(ROOTFS_JSON)))).json();
  for (const name of rootfsFiles(tree)) await keep(VM_CACHE, siteUrl(`vm/${ROOTFS_DIR}${name}`), false);
  return added;
}
