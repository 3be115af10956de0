// The service worker (web/vite.config.ts): offline after the first visit. A new deployment
// waits until the learner takes it from the banner (UpdateBanner), so nobody's lab reloads
// under them.
import { useEffect, useState } from "react";
import { registerSW } from "virtual:pwa-register";

let take: ((reload?: boolean) => Promise<void>) | null = null;

let registered: (ok: boolean) => void = () => undefined;
/**
 * Whether the site's service worker registered: only then do files kept in its caches serve a
 * lab offline (LabPage keeps a lab's VM files for that, 380 requests and their copies, 5-6 s of
 * CPU on a first visit). False at once without service workers; in `npm start`'s dev server,
 * where the plugin registers none, it never settles, and nothing is kept.
 */
export const serviceWorkerRegistered = new Promise<boolean>((r) => (registered = r));

export function startOffline(): void {
  if (!("serviceWorker" in navigator)) return registered(false);
  take = registerSW({
    onNeedRefresh: () => window.dispatchEvent(new Event("fslab-update")),
    onRegisteredSW: () => registered(true),
    onRegisterError: (e) => {
      registered(false);
      console.warn(`fslab: no offline use (the service worker did not register: ${e})`);
    },
  });
}

export function UpdateBanner() {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const on = () => setReady(true);
    window.addEventListener("fslab-update", on);
    return () => window.removeEventListener("fslab-update", on);
  }, []);
  if (!ready) return null;
  return (
    <p className="notice update" role="status" data-testid="update-ready">
      A new version of fslab is ready. Your progress is kept. <button onClick={() => void take?.(true)}>Reload now</button>
    </p>
  );
}
