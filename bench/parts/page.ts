// fslab bench page: what the built site's pages fetch, and how long a lab page takes to a prompt
// that answers, in Chromium (bench/page-load.ts).
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { pageLoads, sumBytes, type LabStart } from "../page-load";
import { describeRatio, describeSpread, pairRatios } from "../paired";
import { goal, kb, mbytes, type BenchPart } from "../report";
import { REPO } from "../site";

/** the root filesystem's files as the site serves them (vm/rootfs/, copied from here) */
const ROOTFS = join(REPO, "kernel-image/dist/rootfs");

export const part: BenchPart = {
  order: 8,
  summary: "what the pages fetch and how long a lab page takes to a prompt that answers, in Chromium",
  async run() {
    const r = await pageLoads();
    console.log("Pages in Chromium (headless), built site from a plain static server (no compression), an empty cache per page:");
    for (const p of r.pages) {
      const what = p.route === "#/" ? "home page" : `playground ${p.route}`;
      const gz = sumBytes(p.js, "gzip");
      const limit = p.route === "#/" ? 120e3 : 250e3;
      const vm = p.v86 || p.xterm ? `; loads ${[p.v86 && "v86", p.xterm && "xterm.js"].filter(Boolean).join(" and ")} (goal: neither)` : "";
      console.log(`  ${what.padEnd(30)} JavaScript ${kb(sumBytes(p.js)).padStart(8)}, ${kb(gz).padStart(7)} gzip in ${p.js.length} files ${goal(gz <= limit, `at most ${kb(limit)} gzip`)}${vm}`);
    }
    const l = r.lab;
    const all = [...l.bytes.js, ...l.bytes.other];
    const by = (re: RegExp) => sumBytes(all.filter((f) => re.test(f.url)));
    const total = sumBytes(all);
    const beforePrompt = sumBytes(all.filter((f) => f.at <= l.bytes.doneAt));
    console.log(
      `  lab page ${l.route}: ${mbytes(total)} over the wire on a first visit, all it fetches until the network is quiet ${goal(total <= 4e6, "at most 4 MB")}` +
        ` (${mbytes(beforePrompt)} of it arrived before the prompt answered, the rest while it did; which parts come first varies from visit to visit): ` +
        `saved state ${mbytes(by(/state\.bin/))}, wasm ${mbytes(by(/\.wasm(\.gz)?$/))}, JavaScript ${mbytes(sumBytes(l.bytes.js))}, ` +
        `root filesystem files ${mbytes(by(/\/vm\/rootfs\//))} (${all.filter((f) => /\/vm\/rootfs\//.test(f.url)).length} fetched), ` +
        `other ${mbytes(total - by(/state\.bin|\.wasm(\.gz)?$|\/vm\/rootfs\//) - sumBytes(l.bytes.js))}; ` +
        // and from a host that compresses scripts (GitHub Pages and Netlify do): the figure
        // beside the goal's plain server, for choosing between them
        `${mbytes(total - sumBytes(l.bytes.js) + sumBytes(l.bytes.js, "gzip"))} from a server that gzips scripts`,
    );
    // not in the figure above (page-load.ts stops at its start), yet a learner who stays
    // downloads it: said beside it, so the page's whole cost is on record
    const rootfs = all.filter((f) => /\/vm\/rootfs\//.test(f.url));
    const files = readdirSync(ROOTFS);
    const copy = files.reduce((a, f) => a + statSync(join(ROOTFS, f)).size, 0) - sumBytes(rootfs);
    console.log(
      `  then, from 3 s after its machine answered, the lab page copies the rest of the root filesystem into the service worker's cache for offline use (keep-offline.ts), in the background: ` +
        `${mbytes(copy)} more, ${files.length - rootfs.length} files (in no goal)`,
    );
    const split = (s: LabStart) =>
      `scripts loaded ${s.jsDone.toFixed(0)}, VM starts ${s.boot.toFixed(0)}, ` +
      (s.stateFrom === "copy" ? `the state read from the page's kept copy in ${s.stateMs.toFixed(0)}` : `the state downloaded in ${s.stateDownload.toFixed(0)} and un-xz'd as it came, ${s.stateMs.toFixed(0)} in all`) +
      `, wasm downloaded in ${s.wasmDownload.toFixed(0)}, ` +
      `v86's core compiled at ${s.compiled.toFixed(0)}, the state restored at ${s.loaded.toFixed(0)}, running ${s.started.toFixed(0)}, prompt ${s.prompt.toFixed(0)}, ${Number.isNaN(s.snapshotAt) ? "no step snapshot (step 1 starts on the lab's own machine)" : `the step's snapshot (save_state) at ${s.snapshotAt.toFixed(0)} for ${s.snapshotMs.toFixed(0)}`}, a command typed at ${s.typed.toFixed(0)} answered at ${s.answered.toFixed(0)} ms`;
    console.log(`  first visit: ${split(l.first)}`);
    console.log(`  warm cache${l.warm.controlled ? " (from the service worker)" : " (HTTP cache; no service worker yet)"}, the median visit:  ${split(l.warm)}`);
    console.log(
      `  warm visits' answers, the machine quiet before each (${l.warmAnswers.map((t) => t.toFixed(0)).join(", ")} ms): ` +
        describeSpread(l.warmAnswers, { atMost: 300 }, { what: "visits", digits: 0, unit: " ms" }),
    );
    console.log(
      `  and straight after leaving a lab page whose machine ran, as a reload (${l.reloadAnswers.map((t) => t.toFixed(0)).join(", ")} ms): ` +
        describeSpread(l.reloadAnswers, null, { what: "visits", digits: 0, unit: " ms" }),
    );
    console.log(
      `  the page's own cold boot ("Cold boot") right after each warm visit answered, from its start to the prompt: ${l.coldMs.map((t) => (t / 1000).toFixed(2) + " s").join(", ")}; ` +
        `cold boot / the same visit's warm answer: ${describeRatio(pairRatios(l.coldMs, l.warmAnswers), { atLeast: 20 }, "visits", 1)}`,
    );
  },
};
