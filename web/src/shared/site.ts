// Where the fslab site's own files are (labs/, vm/, fslab-embed.json): beside the page, or,
// when fslab-embed.js was loaded into another site's page, beside that script.
let base = typeof document !== "undefined" ? document.baseURI : "";

export function siteUrl(path: string): string {
  return new URL(path, base).href;
}

export function setSiteBase(url: string): void {
  base = url;
}

/**
 * A module worker from the site's files. Browsers start workers only from the page's own
 * origin, so for another site's page (the web component) a same-origin blob worker imports it.
 */
export function spawnWorker(url: string): Worker {
  const abs = new URL(url, import.meta.url);
  if (typeof location === "undefined" || abs.origin === location.origin) return new Worker(abs, { type: "module" });
  const shim = URL.createObjectURL(new Blob([`import ${JSON.stringify(abs.href)};`], { type: "text/javascript" }));
  return new Worker(shim, { type: "module" });
}
