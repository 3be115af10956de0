// The lab page's memory over a long class: the mq-deadline lab in Chromium with the busiest
// tracepoint set streaming (block insert, issue and complete, and dd_dispatch_request) while
// the guest runs `load` again and again; the page's JS heap after a forced garbage collection,
// once a minute. The streamed events live in a bounded buffer (web/src/shared/live-buffer.ts):
// once its cap is reached the heap should stop growing.
import { readFileSync } from "node:fs";
import { REPO, withBuiltSite } from "./site";
import { parseLab } from "../web/src/labs/lab-format";

export interface HeapSample {
  minute: number;
  /** the page's used JS heap after a forced GC, bytes */
  heap: number;
  /** the guest's runs of `load` so far */
  loads: number;
  /** what the page says it let go to stay bounded */
  dropped: string | null;
}

/** The solution of the lab's step `n` (its first solution block), as a learner would run it. */
function solution(n: number): string {
  const lab = parseLab(readFileSync(`${REPO}labs/mq-deadline/lab.md`, "utf8"), { includes: () => true, join: () => "" } as unknown as string[], "mq-deadline", "mq-deadline");
  const b = lab.steps[n].blocks.find((x) => x.kind === "solution");
  if (!b || b.kind !== "solution") throw new Error(`mq-deadline step ${n + 1} has no solution`);
  return b.text;
}

export async function heapOverTime(minutes: number, onSample: (s: HeapSample) => void): Promise<HeapSample[]> {
  const out: HeapSample[] = [];
  await withBuiltSite(async ({ base, browser }) => {
    const ctx = await browser();
    const page = ctx.pages()[0] ?? (await ctx.newPage());
    const cdp = await ctx.newCDPSession(page);
    await page.goto(`${base}#/lab/mq-deadline`);
    await page.waitForSelector('[data-phase="ready"]', { timeout: 150_000 });
    const type = async (text: string) => {
      await page.getByTestId("vm-terminal").click();
      await page.keyboard.type(text.endsWith("\n") ? text : text + "\n");
    };
    await type(solution(0)); // the slow disk with mq-deadline
    await page.waitForTimeout(3000);
    await type(solution(1)); // the stream: block events and dd_dispatch_request
    await page.waitForTimeout(3000);
    await type("while :; do load > /dev/null; done");
    const sample = async (minute: number) => {
      await cdp.send("HeapProfiler.collectGarbage");
      const { usedSize } = (await cdp.send("Runtime.getHeapUsage")) as { usedSize: number };
      const loads = Number((await page.locator('[data-testid="kernel-deadline-live"] select[aria-label="run"] option').count()) || 0);
      const note = page.getByTestId("live-dropped");
      const dropped = (await note.count()) ? await note.textContent() : null;
      const s = { minute, heap: usedSize, loads, dropped: dropped && dropped.trim() };
      out.push(s);
      onSample(s);
    };
    await sample(0);
    for (let m = 1; m <= minutes; m++) {
      await page.waitForTimeout(60_000);
      await sample(m);
    }
  });
  return out;
}
