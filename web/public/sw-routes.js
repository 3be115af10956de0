// Imported by the site's service worker (sw.js, made by Workbox: web/vite.config.ts offline()).
// The site's hashed assets (assets/*: scripts, styles, wasm) come straight from the precache
// through the browser's static routes (the ServiceWorker static routing API, Chromium 123+),
// without a fetch event: a lab page's ~20 chunks otherwise waited in line on this worker's one
// thread, ~50 ms of a warm visit before its VM could start. Workbox precaches them by their plain
// URL (a hashed name needs no revision), in the cache named below; a URL missing from it goes to
// the network, as Workbox's own route would. Everything else (the page itself, vm/, labs/) still
// goes through the fetch handler. A browser without the API, or without its cache source, keeps
// the fetch handler for all.
//
// Not when the server varies its scripts on the request's Origin (`Vary: Origin`, as a server
// that answers CORS per origin does): the router's cache lookup then compares the page's
// Origin header with the precache's request, which had none, finds nothing, and goes to the
// network, which offline fails. Workbox's own lookup does not see the header and still finds
// them; so on such a server the fetch handler keeps serving them.
const ROUTED = "assets/";

async function variesOnOrigin() {
  // this script, as the server sends its scripts, asked as a module script is (CORS mode)
  const r = await fetch(new URL("sw-routes.js", self.registration.scope), { mode: "cors", cache: "no-store" });
  return /(^|,)\s*(origin|\*)\s*(,|$)/i.test(r.headers.get("Vary") ?? "");
}

self.addEventListener("install", (event) => {
  if (typeof event.addRoutes !== "function" || typeof URLPattern !== "function") return;
  const scope = new URL(self.registration.scope);
  // URLPattern syntax: the scope's parts are matched as they are
  const literal = (s) => s.replace(/[\\:*?+(){}]/g, "\\$&");
  event.waitUntil(
    variesOnOrigin()
      .then((varies) => {
        if (varies) return;
        return event.addRoutes([
          {
            condition: {
              urlPattern: new URLPattern({ protocol: scope.protocol.slice(0, -1), hostname: literal(scope.hostname), port: scope.port, pathname: `${literal(scope.pathname)}${ROUTED}*` }),
              requestMethod: "GET",
            },
            // Workbox's precache: workbox-core's cacheNames.precache for this scope
            source: { cacheName: `workbox-precache-v2-${self.registration.scope}` },
          },
        ]);
      })
      // the server unreachable, or a browser without the cache source: the fetch handler serves all
      .catch(() => undefined),
  );
});
