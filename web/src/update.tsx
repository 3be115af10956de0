// The service worker (web/vite.config.ts): offline after the first visit. A new deployment
// waits until the learner takes it from the banner (UpdateBanner), so nobody's lab reloads
// under them.
import { useEffect, useState } from "react";
import { registerSW } from "virtual:pwa-register";

let take: ((reload?: boolean) => Promise<void>) | null = null;

export function startOffline(): void {
  if (!("serviceWorker" in navigator)) return;
  take = registerSW({
    onNeedRefresh: () => window.dispatchEvent(new Event("fslab-update")),
    onRegisterError: (e) => console.warn(`fslab: no offline use (the service worker did not register: ${e})`),
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
