// The views' frame times in Chromium: builds the page, serves it, opens #/bench/frames
// (web/src/topics/exfat/BenchFrames.tsx) headless and reads what it measured.
import { withBuiltSite } from "./site";
import type { FrameStats } from "../web/src/topics/exfat/BenchFrames";

/** rAF intervals over `ms` in the page as it is: what a learner feels while it works. */
const INTERVALS = (ms: number) => `new Promise((resolve) => {
  const out = []; let last = 0; const end = performance.now() + ${ms};
  const f = (t) => { if (last) out.push(t - last); last = t; if (t < end) requestAnimationFrame(f); else resolve(out); };
  requestAnimationFrame(f);
})`;

export interface VmResponsiveness {
  idle: number[]; // rAF intervals on the lab page, the guest at its prompt
  busy: number[]; // the same while the guest spins a CPU loop
}

export async function frameStats(): Promise<{ cells: FrameStats; bitmap: FrameStats; vm: VmResponsiveness }> {
  return withBuiltSite(async ({ base, browser }) => {
    const ctx = await browser();
    const page = ctx.pages()[0] ?? (await ctx.newPage());
    await page.goto(`${base}#/bench/frames`);
    await page.waitForFunction(() => (window as any).__frameBench?.bitmap || (window as any).__frameBench?.error, null, { timeout: 180_000 });
    const r = await page.evaluate(() => (window as any).__frameBench);
    if (r.error) throw new Error(`the frame benchmark failed in the page: ${r.error}`);
    // the page beside a running VM: v86 runs on the main thread, in slices
    await page.goto(`${base}#/lab/exfat-discard`);
    await page.waitForSelector('[data-phase="ready"]', { timeout: 150_000 });
    const idle = (await page.evaluate(INTERVALS(3000))) as number[];
    await page.getByTestId("vm-terminal").click();
    await page.keyboard.type("while :; do :; done\n");
    await page.waitForTimeout(500);
    const busy = (await page.evaluate(INTERVALS(3000))) as number[];
    return { ...r, vm: { idle, busy } };
  });
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

/** One line per scene: the frame rate achieved, and the work per frame against the frame's budget. */
export function describe(name: string, s: FrameStats, targetFps: number): string {
  const interval = quantile(s.intervalMs, 0.5);
  const work50 = quantile(s.workMs, 0.5);
  const work95 = quantile(s.workMs, 0.95);
  const budget = 1000 / targetFps;
  return (
    `  ${name.padEnd(52)} ${(1000 / interval).toFixed(0).padStart(4)} fps (median interval ${interval.toFixed(1)} ms); ` +
    `work per frame median ${work50.toFixed(1)} ms, p95 ${work95.toFixed(1)} ms = ${(work95 / budget).toFixed(2)}x the ${targetFps} fps budget of ${budget.toFixed(1)} ms`
  );
}

/** The frame intervals of the lab page, the guest idle and busy. */
export function describeVm(v: VmResponsiveness): string[] {
  return (["idle", "busy"] as const).map((k) => {
    const xs = v[k];
    return `  lab page, guest ${k === "idle" ? "at its prompt" : "spinning a CPU loop"}: ${(1000 / quantile(xs, 0.5)).toFixed(0)} fps (median interval ${quantile(xs, 0.5).toFixed(1)} ms, p95 ${quantile(xs, 0.95).toFixed(1)} ms, longest ${Math.max(...xs).toFixed(1)} ms)`;
  });
}
