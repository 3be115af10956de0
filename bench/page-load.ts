// What a learner's browser fetches and waits for (npm run bench page): the built site from a
// plain static server (Vite's preview: no compression), Debian's Chromium, a fresh profile per
// page so every byte is counted once:
//   - the home page and each playground: JavaScript over the wire and gzipped (what a server
//     that compresses would send), and whether v86 or xterm.js came with it;
//   - a lab page: every byte before a prompt that answers a command, by kind, then the time
//     from navigation to that answer on a first visit and again with a warm HTTP cache, split
//     by the page's own marks (web/src/vm/browser/vm-host.ts: fslab:vm-boot, -compiled, -loaded,
//     -started, -prompt) and the resources' timings (the saved state's and v86's wasm
//     download); each warm visit then cold-boots the page's machine ("Cold boot"), so the cold
//     boot and the warm answer it is compared with come in pairs from the same visits,
//     interleaved (bench/paired.ts).
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import type { Page } from "playwright-core";
import { loadTopics } from "../web/src/topics/node-index";
import { withBuiltSite } from "./site";

export interface Fetched {
  url: string;
  bytes: number;
  gzip: number; // JavaScript only: what gzip -6 makes of it
  /** Date.now() when the response arrived */
  at: number;
  /** served by the site's service worker */
  sw?: boolean;
}

export interface PageBytes {
  route: string;
  js: Fetched[];
  other: Fetched[];
  v86: boolean; // the emulator's JavaScript came with the page
  xterm: boolean;
  /** Date.now() when `go` was done (for a lab page: its prompt answered) */
  doneAt: number;
}

export interface LabStart {
  /** ms from navigation: the page's marks and the answer to the first command */
  boot: number;
  /** the step-1 snapshot's save_state: when it began and how long it held the page's thread */
  snapshotAt: number;
  snapshotMs: number;
  /** v86's core downloaded, compiled and instantiated */
  compiled: number;
  loaded: number;
  started: number;
  prompt: number;
  typed: number; // when the harness typed the command, as soon as the page said it was ready
  answered: number;
  /** the saved state's and v86 wasm's download (responseEnd - startTime), ms; 0 from the cache */
  stateDownload: number;
  wasmDownload: number;
  /** the saved state's load, ms from its start (as the page opened) to plain bytes, and from where */
  stateMs: number;
  stateFrom: "copy" | "file" | undefined;
  jsDone: number; // the last script's responseEnd
  /** the site's service worker served the page (a returning learner's case, once it installed) */
  controlled: boolean;
}

export interface PageLoadReport {
  pages: PageBytes[];
  /**
   * warm: the median of the warm visits (by time to the answer), whose answers are
   * warmAnswers; coldMs[i]: the page's own cold boot (its start to the prompt) on visit i,
   * right after that visit's warm answer warmAnswers[i]
   */
  lab: { route: string; bytes: PageBytes; first: LabStart; warm: LabStart; warmAnswers: number[]; coldMs: number[]; reloadAnswers: number[] };
}

const sum = (xs: Fetched[], k: "bytes" | "gzip" = "bytes") => xs.reduce((a, f) => a + f[k], 0);
export { sum as sumBytes };

/**
 * Records what the page itself fetches (not its service worker's precache) while `go` opens
 * `url`, and after it for AFTER_MS and then until no response has come for a second: all the
 * page fetches, whatever the order its parts happen to load in on this visit (a view's code
 * before or after the prompt), so the figure is the same from one run to the next. What a lab
 * page puts off until its first prompt has stood (the views, the tty's size: at most 3 s) and
 * the course it reads 3 s after it opened are counted: a learner fetches them all the same.
 */
/** how long after `go` a page's fetches are counted, at the least */
const AFTER_MS = 5000;

async function record(page: Page, url: string, go: () => Promise<void>): Promise<PageBytes> {
  const js: Fetched[] = [];
  const other: Fetched[] = [];
  let v86 = false;
  let xterm = false;
  const pending: Promise<void>[] = [];
  let last = Date.now();
  const seen = new Set<string>();
  const onResponse = (r: import("playwright-core").Response) => {
    const at = (last = Date.now());
    pending.push(
      (async () => {
        const u = new URL(r.url());
        // What the page asks for, once a URL, whoever serves it: once the service worker controls
        // the page (it claims a first visit as it installs) it serves the rest from its precache
        // or through its runtime routes (vm/ and labs/). The precache's own downloads (the whole
        // app shell, in the background for offline use) are not the page's, and not counted.
        if (r.status() >= 300 || seen.has(u.href)) return;
        seen.add(u.href);
        const body = await r.body().catch(() => null);
        if (!body) return;
        const path = u.pathname;
        // what a plain static server sends: the file as it is. Vite's preview compresses scripts
        // on the fly (counted here as the files they are), and sends a .gz file as
        // Content-Encoding: gzip (v86.wasm.gz), whose body() is what the browser un-gzipped
        const wire = /\.gz$/.test(path) && r.headers()["content-encoding"] ? (await r.request().sizes()).responseBodySize : body.length;
        if (/\.m?js$/.test(path)) {
          const text = body.toString("latin1");
          v86 ||= text.includes("virtio-balloon");
          xterm ||= text.includes("xterm-helper-textarea");
          js.push({ url: path, bytes: wire, gzip: gzipSync(body).length, at, sw: r.fromServiceWorker() });
        } else other.push({ url: path, bytes: wire, gzip: 0, at, sw: r.fromServiceWorker() });
      })(),
    );
  };
  page.on("response", onResponse);
  await go();
  const doneAt = Date.now();
  // then quiet for a second (at most 30 s: a page that polls would never be), or until a lab
  // page starts its offline copy of the root filesystem (keep-offline.ts), all 536 files one
  // after another, in the background as the service worker's precache is: not counted
  const offlineCopy = () => page.evaluate(() => {
    const m = performance.getEntriesByName("fslab:keep-offline-rootfs")[0];
    return m ? performance.timeOrigin + m.startTime : null;
  });
  let copyFrom: number | null = null;
  while ((Date.now() - doneAt < AFTER_MS || Date.now() - last < 1000) && Date.now() - doneAt < 30_000) {
    if ((copyFrom = await offlineCopy()) !== null) break;
    await page.waitForTimeout(200);
  }
  page.off("response", onResponse);
  await Promise.all(pending);
  const own = (f: Fetched) => copyFrom === null || !f.sw || f.at < copyFrom;
  return { route: new URL(url).hash, js: js.filter(own), other: other.filter(own), v86, xterm, doneAt };
}

/**
 * When (performance.now() in the page) the terminal first shows `line` as a whole line, looked
 * for every `polling` ms (10: a time to the millisecond; longer where the looking must not load
 * the page, as while it rests).
 */
export async function lineShown(page: Page, line: string, timeout: number, polling = 10): Promise<number> {
  const h = await page.waitForFunction(
    (want) => {
      const b = (window as any).__fslabTerminal?.buffer.active;
      if (!b) return 0;
      for (let i = 0; i < b.length; i++) if (b.getLine(i)?.translateToString(true) === want) return performance.now();
      return 0;
    },
    line,
    { polling, timeout },
  );
  return (await h.jsonValue()) as number;
}

const typing = new WeakSet<Page>();

/**
 * Each document the page opens types `echo fslab-$((6 * 7))` the moment its first prompt is
 * marked, through xterm.js as keys would be, at the page's own event (vm-host.ts markVm), in the
 * same task: waiting in the harness for the page to say "ready" added hundreds of ms of the
 * harness's own polling, and a PerformanceObserver hears of the mark 5-30 ms late, neither of
 * which a learner at the keyboard waits. Once per document: a cold boot's prompt types nothing.
 * The page notes the answer itself (`__fslabAnswered`), at the terminal's line feed that ends
 * it: Playwright's waitForFunction, asked right after the navigation, put its own 330 KB script
 * into the page as it loaded (24 ms of the page's thread in a trace, 2 cores).
 */
export async function typesAtPrompt(page: Page): Promise<void> {
  if (typing.has(page)) return;
  typing.add(page);
  await page.addInitScript(`addEventListener("fslab:vm-prompt", () => {
    const term = window.__fslabTerminal;
    window.__fslabTyped = performance.now();
    const fed = term.onLineFeed(() => {
      const b = term.buffer.active;
      for (let i = b.length - 1; i >= 0 && i >= b.length - 50; i--)
        if (b.getLine(i)?.translateToString(true) === "fslab-42") {
          window.__fslabAnswered = performance.now();
          return fed.dispose();
        }
    });
    term.input("echo fslab-$((6 * 7))\\r", true);
  }, { once: true });`);
}

/** When the page noted its answer (typesAtPrompt), asked of it every 50 ms by a plain evaluate. */
export async function answeredAt(page: Page, timeoutMs: number): Promise<number> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const at = (await page.evaluate("window.__fslabAnswered ?? null")) as number | null;
    if (at !== null) return at;
    if (Date.now() > until) throw new Error(`the lab page did not answer its first command within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** From navigation to a prompt that has answered `echo $((6 * 7))`, with the page's marks. */
async function labStart(page: Page, url: string): Promise<LabStart> {
  await typesAtPrompt(page);
  await page.goto(url);
  const answered = await answeredAt(page, 150_000);
  // a string, not a function: tsx would wrap the inner arrows in a helper the page lacks
  return page.evaluate(`(() => {
    const mark = (n) => performance.getEntriesByName("fslab:vm-" + n).at(-1)?.startTime ?? NaN;
    const res = performance.getEntriesByType("resource");
    const dl = (re) => {
      const r = res.filter((e) => re.test(e.name)).at(-1);
      return r ? r.responseEnd - r.startTime : NaN;
    };
    return {
      boot: mark("boot"),
      snapshotAt: performance.getEntriesByName("fslab:snapshot-save").at(0)?.startTime ?? NaN,
      snapshotMs: performance.getEntriesByName("fslab:snapshot-save").at(0)?.duration ?? NaN,
      compiled: mark("compiled"),
      loaded: mark("loaded"),
      started: mark("started"),
      prompt: mark("prompt"),
      typed: window.__fslabTyped,
      answered: ${answered},
      // fetched by the page's state worker, whose timings the page's timeline lacks: it says
      stateDownload: performance.getEntriesByName("fslab:vm-state").at(-1)?.detail?.downloadMs ?? dl(/state\\.bin/),
      wasmDownload: dl(/\\.wasm(\\.gz)?(\\?|$)/),
      stateMs: performance.getEntriesByName("fslab:vm-state").at(-1)?.duration ?? NaN,
      stateFrom: performance.getEntriesByName("fslab:vm-state").at(-1)?.detail?.from,
      jsDone: Math.max(0, ...res.filter((e) => /\\.js(\\?|$)/.test(e.name)).map((e) => e.responseEnd)),
      controlled: !!navigator.serviceWorker?.controller,
    };
  })()`) as Promise<LabStart>;
}

// nine: with five, one run's median moved by 50 ms on a noisy 2-core machine (2026-12-05: 294 and
// 330 ms in two runs of one build, where two builds' interleaved medians of ten were 278-316)
const WARM_VISITS = 9;

/** The machine's CPU time so far, busy and all, in USER_HZ ticks (Linux's /proc/stat); null elsewhere. */
function cpuTicks(): { busy: number; all: number } | null {
  try {
    const f = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
    const all = f.reduce((a, b) => a + b, 0);
    return { busy: all - f[3] - (f[4] ?? 0), all }; // less idle and iowait
  } catch {
    return null;
  }
}

/**
 * Until the machine is quiet: under 15% of its CPUs busy over a quarter of a second (a torn-down
 * page's renderer done), at most 10 s; a second without /proc.
 */
export async function machineQuiet(): Promise<void> {
  const until = Date.now() + 10_000;
  let last = cpuTicks();
  if (!last) return new Promise((r) => setTimeout(r, 1000));
  while (Date.now() < until) {
    await new Promise((r) => setTimeout(r, 250));
    const now = cpuTicks()!;
    const busy = (now.busy - last.busy) / Math.max(1, now.all - last.all);
    last = now;
    if (busy < 0.15) return;
  }
}

/** the page's own cold boot, asked for with its button: ms from the VM's start to the prompt */
async function coldBoot(page: Page): Promise<number> {
  await page.getByRole("button", { name: "Cold boot" }).click();
  await page.waitForSelector('[data-phase="ready"][data-start="cold"]', { timeout: 150_000 });
  return (await page.evaluate(`(() => {
    const mark = (n) => performance.getEntriesByName("fslab:vm-" + n).at(-1)?.startTime ?? NaN;
    return mark("prompt") - mark("boot");
  })()`)) as number;
}

export async function pageLoads(lab = "exfat-discard"): Promise<PageLoadReport> {
  const topics = await loadTopics();
  const routes = ["#/", ...topics.flatMap((t) => t.playgrounds.map((p) => `#/play/${p.route}`))];
  return withBuiltSite(async ({ base, browser }) => {
    const pages: PageBytes[] = [];
    for (const route of routes) {
      const ctx = await browser();
      const page = ctx.pages()[0] ?? (await ctx.newPage());
      const url = `${base}${route}`;
      pages.push(await record(page, url, () => page.goto(url, { waitUntil: "networkidle" }).then(() => undefined)));
      await ctx.close();
    }
    const ctx = await browser();
    const page = ctx.pages()[0] ?? (await ctx.newPage());
    const url = `${base}#/lab/${lab}`;
    let first: LabStart | null = null;
    const bytes = await record(page, url, async () => {
      first = await labStart(page, url).catch((e) => {
        throw new Error(`the lab page did not answer a command: ${e}`);
      });
    });
    // the same page again in the same browser: its HTTP cache (and service worker) warm. Nine times
    // (WARM_VISITS), the median kept: one visit's figure swings by 200 ms here with what the browser
    // is still doing in the background (the service worker's install, the offline copy). Each visit,
    // once answered, cold-boots the page's machine: warm, cold, warm, cold, so that a change in the
    // machine's speed lands on both sides of their ratio alike. A warm visit starts with the machine
    // quiet, as a learner opening a lab finds it: straight after leaving a page whose machine ran, the
    // old page's teardown took the CPU from the new one (every other visit ~200 ms slower, 2 cores).
    // That case, a reload, is measured too, after each cold boot.
    const warms: LabStart[] = [];
    const reloads: number[] = [];
    const coldMs: number[] = [];
    for (let i = 0; i < WARM_VISITS; i++) {
      await page.goto("about:blank");
      await machineQuiet();
      warms.push(await labStart(page, url));
      coldMs.push(await coldBoot(page));
      await page.goto("about:blank");
      reloads.push((await labStart(page, url)).answered);
    }
    const warm = [...warms].sort((a, b) => a.answered - b.answered)[WARM_VISITS >> 1];
    return { pages, lab: { route: `#/lab/${lab}`, bytes, first: first!, warm, warmAnswers: warms.map((w) => w.answered), reloadAnswers: reloads, coldMs } };
  });
}
