// /play/blk in Chromium: parameters from the link, predict-then-reveal, the numbers
// and plots the page shows against the same models run here in Node.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import { launch, screenshot } from "../../../../e2e/browser";
import { loadCoreModule } from "../../shared/node-load";
import { DD_DEFAULTS, DEVICES, fioJobs, parseDdState, simulateBlk, stepBlk } from "./blk-core";
import { parseKyberState } from "./kyber";
import { tailVerdict } from "./PlayBlk";
import { compareBlkTrace } from "./trace-compare";
import { parseBlkTrace } from "./blk-trace";
import { simulateBlkTrace } from "./trace-replay";
import { kernelDdTimeline, replayDdDecisions } from "./dd-kernel";
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";

const base = () => inject("baseUrl");

async function expected(fifo_batch: number) {
  const m = await loadCoreModule("blk");
  const jobs = fioJobs({ numjobs: 4, iodepth: 4, bs: 65536, rw: "randread", size: 4 << 20 });
  const tunables = { ...DD_DEFAULTS, fifo_batch };
  const [none, dd] = (["none", "mq-deadline"] as const).map((sched) => simulateBlk(m, { sched, device: DEVICES.hdd, jobs, tunables, seed: 1 }));
  return { none, dd, ...tailVerdict(none, dd) };
}

describe("/play/blk", () => {
  let b: Awaited<ReturnType<typeof launch>>;
  let page: Page;
  beforeAll(async () => {
    b = await launch();
    page = b.page;
    await page.goto(`${base()}#/play/blk?device=hdd&rw=randread&numjobs=4&iodepth=4&bs=64k&size=4M&fifo_batch=16&writes_starved=2&seed=1`);
  });
  afterAll(async () => {
    await screenshot(page, "play-blk");
    await b.close();
  });

  it("is reachable from the home page", async () => {
    const p = await b.ctx.newPage();
    await p.goto(`${base()}#/`);
    await p.click('a[href="#/play/blk"]');
    // a wait on the form, long enough for a machine twice as slow as a busy CI lane (one clean-clone
    // run took over 30 s here while both cores ran other lanes)
    await p.waitForSelector("form[aria-label=scenario]", { timeout: 120_000 });
    await p.close();
  });

  it("takes its scenario from the link", async () => {
    expect(await page.locator("select").first().inputValue()).toBe("hdd");
    expect(await page.getByLabel("fifo_batch").inputValue()).toBe("16");
    expect(await page.textContent(".play-form")).toMatch(/256 requests/);
  });

  it("reveals, after a prediction, what the blk core computes, and draws every request", async () => {
    const want = await expected(16);
    await page.check('input[name=prediction][value="higher"]');
    await page.click("text=Run and reveal");
    const reveal = page.locator(".reveal[role=status]");
    await reveal.waitFor();
    expect(await reveal.getAttribute("data-verdict")).toBe(want.verdict);
    expect(await reveal.getAttribute("data-ratio")).toBe(want.ratio.toFixed(4));
    expect(await reveal.textContent()).toMatch(want.verdict === "higher" ? /Your prediction was right/ : /You predicted higher/);
    for (const r of [want.none, want.dd]) {
      const row = page.locator(`tr[data-sched="${r.summary.sched}"]`);
      expect(await row.locator("td").nth(1).textContent()).toBe(r.summary.mb_per_s.toFixed(1));
    }
    expect(await page.locator("figure.offset-plot[data-points='256']").count()).toBe(4);
    const kyber = simulateBlk(await loadCoreModule("blk"), { sched: "kyber", device: DEVICES.hdd, jobs: fioJobs({ numjobs: 4, iodepth: 4, bs: 65536, rw: "randread", size: 4 << 20 }), tunables: { ...DD_DEFAULTS, fifo_batch: 16 }, seed: 1 });
    expect(await page.locator('tr[data-sched="kyber"] td').nth(1).textContent()).toBe(kyber.summary.mb_per_s.toFixed(1));
    const bfq = simulateBlk(await loadCoreModule("blk"), { sched: "bfq", device: DEVICES.hdd, jobs: fioJobs({ numjobs: 4, iodepth: 4, bs: 65536, rw: "randread", size: 4 << 20 }), tunables: { ...DD_DEFAULTS, fifo_batch: 16 }, seed: 1 });
    expect(await page.locator('tr[data-sched="bfq"] td').nth(1).textContent()).toBe(bfq.summary.mb_per_s.toFixed(1));
  });

  it("a changed parameter goes into the link and clears the answer; the keyboard runs it again", async () => {
    await page.getByLabel("fifo_batch").fill("1");
    await expect.poll(() => page.url()).toMatch(/fifo_batch=1(&|$)/);
    expect(await page.locator(".reveal").count()).toBe(0);
    await page.focus('input[name=prediction][value="lower"]');
    await page.keyboard.press("Space");
    await page.focus("text=Run and reveal");
    await page.keyboard.press("Enter");
    const want = await expected(1);
    const reveal = page.locator(".reveal[role=status]");
    await reveal.waitFor();
    expect(await reveal.getAttribute("data-ratio")).toBe(want.ratio.toFixed(4));
  });

  it("steps through mq-deadline: lists, counters and what each step moved are the core's, by button and by keyboard", async () => {
    const m = await loadCoreModule("blk");
    const jobs = fioJobs({ numjobs: 4, iodepth: 4, bs: 65536, rw: "randread", size: 4 << 20 });
    const st = stepBlk(m, { sched: "mq-deadline", device: DEVICES.hdd, jobs, tunables: { ...DD_DEFAULTS, fifo_batch: 1 }, seed: 1 }, 400);
    const state = (k: number) => parseDdState(st.words.subarray(st.offsets[k], st.offsets[k + 1]));
    const view = page.getByTestId("dd-queues");
    await view.waitFor();
    const check = async (k: number) => {
      const s = state(k);
      await expect.poll(() => page.getByTestId("dd-batching").textContent()).toBe(`${s.batching} of fifo_batch 1`);
      const fifo = view.locator('[data-prio="BE"][data-dir="read"] ol').first().locator("li.rq");
      expect(await fifo.count()).toBe(Math.min(48, s.lists[1][0].fifo.length));
      if (s.lists[1][0].fifo.length) expect(await fifo.first().textContent()).toMatch(new RegExp(`^R${s.lists[1][0].fifo[0].rq} `));
      const issued = s.dispatched.filter((x) => !state(k - 1).dispatched.includes(x));
      expect(await page.getByTestId("dd-moved").textContent()).toMatch(new RegExp(`dispatched ${issued.map((x) => `R${x}`).join(", ") || "nothing"}\\.`));
    };
    await check(1);
    await view.getByTestId("step").click();
    await check(2);
    await view.getByTestId("step").focus();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await check(4);
  });

  it("steps through kyber too: its token pools and queues are the core's, and the depths its timer set are drawn", async () => {
    const m = await loadCoreModule("blk");
    const jobs = fioJobs({ numjobs: 4, iodepth: 4, bs: 65536, rw: "randread", size: 4 << 20 });
    const sc = { sched: "kyber" as const, device: DEVICES.hdd, jobs, tunables: { ...DD_DEFAULTS, fifo_batch: 1 }, seed: 1 };
    const st = stepBlk(m, sc, 400);
    const state = (k: number) => parseKyberState(st.kyber!.words.subarray(st.kyber!.offsets[k], st.kyber!.offsets[k + 1]));
    const view = page.getByTestId("kyber-queues");
    await view.waitFor();
    const s1 = state(1);
    expect(await view.getByTestId("kyber-tokens-0").textContent()).toBe(`${s1.domains[0].held} of ${s1.domains[0].depth}`);
    await view.getByTestId("step").click();
    const s2 = state(2);
    await expect.poll(() => view.getByTestId("kyber-tokens-0").textContent()).toBe(`${s2.domains[0].held} of ${s2.domains[0].depth}`);
    const whole = simulateBlk(m, sc);
    expect(Number(await page.getByTestId("kyber-depths").getAttribute("data-runs"))).toBe(whole.kyber!.length);
  });

  it("replays a trace the guest recorded: the kernel's queue times and the model's per scheduler, as the core computes them", async () => {
    const m = await loadCoreModule("blk");
    const trace = parseBlkTrace(gunzipSync(readFileSync(new URL("./traces/blk-nullb-mq-deadline.trace.gz", import.meta.url))).toString("utf8"));
    const cmp = (["none", "mq-deadline", "kyber", "bfq"] as const).map((s) => compareBlkTrace(trace, simulateBlkTrace(m, trace, s, "kernel", { dispatchGaps: true })));
    await page.getByRole("button", { name: "null_blk under mq-deadline" }).click();
    const reads = page.locator('[data-testid="trace-replay"] tr[data-op="reads"] td');
    await reads.first().waitFor();
    expect(await page.getByTestId("trace-summary").textContent()).toMatch(new RegExp(`^null_blk under mq-deadline: ${trace.requests.length} requests`));
    const r = (o: { mean_us: number; p99_us: number }) => `${(o.mean_us / 1000).toFixed(1)} / ${(o.p99_us / 1000).toFixed(1)}`;
    const op = (c: (typeof cmp)[number]) => c.ops.find((o) => o.op === 0)!;
    expect(await reads.nth(1).textContent()).toBe(r(op(cmp[0]).kernel.queue));
    for (let i = 0; i < 4; i++) expect(await reads.nth(2 + i).textContent()).toBe(r(op(cmp[i]).model.queue));
    expect(await page.locator('[data-testid="trace-replay"] figure.offset-plot').count()).toBe(5);
    // a file that is not a trace gets an error naming its line
    await page.getByLabel("a block trace file").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello\n") });
    await expect.poll(() => page.locator('[data-testid="trace-replay"] [role=alert]').textContent()).toMatch(/notes\.txt: .*line 1/);
  });

  it("steps through the kernel's own mq-deadline decisions in the same view, each judged by the model from the same lists", async () => {
    const m = await loadCoreModule("blk");
    const trace = parseBlkTrace(gunzipSync(readFileSync(new URL("./traces/blk-nullb-dd.trace.gz", import.meta.url))).toString("utf8"));
    const tl = kernelDdTimeline(trace);
    const rep = replayDdDecisions(m, trace);
    const panel = page.getByTestId("kernel-deadline");
    await panel.getByRole("button", { name: /recorded: null_blk/ }).click();
    const summary = panel.getByTestId("kernel-dd-summary");
    await expect.poll(() => summary.getAttribute("data-same"), { timeout: 20_000 }).toBe(String(rep.sameReasons));
    expect(await summary.textContent()).toMatch(
      new RegExp(`in one line: ${tl.steps} dispatches on device .*; the model made ${rep.sameReasons} of the kernel's ${tl.steps} decisions for the same reasons`),
    );
    expect(await summary.getAttribute("data-lists-agree")).toBe(String(tl.lengthsAgree));
    // a decision the model made otherwise is listed under the view, one button each
    const differ = rep.verdicts.filter((v) => !v.sameReasons).length;
    expect(await panel.getByTestId("dd-agreement").locator("button").count()).toBe(Math.min(12, differ));
    const view = panel.getByTestId("dd-queues");
    const name = (rq: number) => `${tl.op(rq) ? "W" : "R"}${rq}`;
    const check = async (k: number, reason: RegExp) => {
      const s = tl.at(k);
      await expect.poll(() => view.getByTestId("dd-moved").textContent()).toMatch(new RegExp(`The kernel dispatched ${name(tl.dispatched!(k))} `));
      expect(await view.getByTestId("dd-moved").textContent()).toMatch(reason);
      expect(await view.getByTestId("dd-batching").textContent()).toBe(`${s.batching} of fifo_batch ${s.fifoBatch}`);
      expect(await view.getByTestId("dd-starved").textContent()).toBe(`${s.starved} of writes_starved ${s.writesStarved}`);
      const fifo = view.locator('[data-prio="BE"][data-dir="read"] ol').first().locator("li.rq");
      expect(await fifo.count()).toBe(Math.min(48, s.lists[1][0].fifo.length));
      expect(await view.getByTestId("dd-verdict").getAttribute("data-same")).toBe(String(rep.verdicts[k].sameReasons));
    };
    await check(1, /still in a batch/);
    // the first decision the kernel took for an expired deadline: scrub there
    const expired = trace.sched.filter((e) => e.kind === "dispatch").findIndex((e) => trace.requests[e.rq].dd!.pick === "expired");
    expect(expired).toBeGreaterThan(0);
    await view.getByTestId("scrub").fill(String(expired));
    await check(expired, /reads come first; the oldest, its deadline passed/);
    // the FIFO head it took had no time left: the model's deadline arithmetic is the kernel's
    expect(trace.requests[tl.dispatched!(expired)].dd!.fifoLeftMs).toBeLessThanOrEqual(0);
    await view.getByTestId("step").focus();
    await page.keyboard.press("ArrowRight");
    await check(expired + 1, /./);
    // a file without the tracepoint's events gets an error that says what is missing
    await panel.getByLabel("an mq-deadline trace file").setInputFiles({
      name: "plain.trace", mimeType: "text/plain",
      buffer: gunzipSync(readFileSync(new URL("./traces/blk-nullb-mq-deadline.trace.gz", import.meta.url))),
    });
    await expect.poll(() => panel.locator("[role=alert]").textContent()).toMatch(/plain\.trace: .*no mq_deadline:dd_dispatch_request events/);
  });
});
