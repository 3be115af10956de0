// The playgrounds in Chromium: parameters from the link, predict-then-reveal, the
// numbers and plots the page shows against the same blk core run here in Node.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import { launch, screenshot } from "./browser";
import { loadCoreModule } from "../web/src/shared/node-load";
import { DD_DEFAULTS, DEVICES, fioJobs, parseDdState, simulateBlk, stepBlk } from "../web/src/topics/blk/blk-core";
import { parseKyberState } from "../web/src/topics/blk/kyber";
import { tailVerdict } from "../web/src/topics/blk/PlayBlk";
import { benchWorkloadSteps, GUEST_NAT_BLOCKS, NAT_ENTRY_PER_BLOCK, nidFrames } from "../web/src/topics/f2fs/nid";
import { FXMARK_COSTS, fxmarkTrace, fxmarkUnlink, LOCKS, timelineTotals } from "../web/src/topics/f2fs/fxmark";
import { LAYOUTS, ext4WriteFile } from "../web/src/topics/ext4/ext4-core";
import { hex, vfatName } from "../web/src/topics/vfat/vfat-core";
import { inspectImage } from "../web/src/shared/inspect/inspect";
import { type Ext4Report } from "../web/src/topics/ext4/inspect-report";
import { type VfatReport } from "../web/src/topics/vfat/inspect-report";
import { VFAT_MOUNTS, VFAT_NAMES } from "../web/src/topics/vfat/vfat-names";
import { dirRun, dirScenarioOps, dirSweeps } from "../web/src/topics/exfat/exfat-dir";
import { slotRuns } from "../web/src/topics/exfat/exfat-disk";
import { compareBlkTrace } from "../web/src/topics/blk/trace-compare";
import { parseBlkTrace } from "../web/src/topics/blk/blk-trace";
import { simulateBlkTrace } from "../web/src/topics/blk/trace-replay";
import { kernelDdTimeline, replayDdDecisions } from "../web/src/topics/blk/dd-kernel";
import { readFileSync } from "node:fs";
import { ExfatCore } from "../web/src/topics/exfat/exfat-core";
import { ExfatLab } from "../web/src/topics/exfat/exfat-scenario";
import { DiscardPolicy } from "../web/src/topics/exfat/events";
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
    await p.waitForSelector("form[aria-label=scenario]");
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
    const trace = parseBlkTrace(gunzipSync(readFileSync(new URL("../web/src/topics/blk/traces/blk-nullb-mq-deadline.trace.gz", import.meta.url))).toString("utf8"));
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
    const trace = parseBlkTrace(gunzipSync(readFileSync(new URL("../web/src/topics/blk/traces/blk-nullb-dd.trace.gz", import.meta.url))).toString("utf8"));
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
      buffer: gunzipSync(readFileSync(new URL("../web/src/topics/blk/traces/blk-nullb-mq-deadline.trace.gz", import.meta.url))),
    });
    await expect.poll(() => panel.locator("[role=alert]").textContent()).toMatch(/plain\.trace: .*no mq_deadline:dd_dispatch_request events/);
  });
});

describe("/play/f2fs", () => {
  let b: Awaited<ReturnType<typeof launch>>;
  let page: Page;
  beforeAll(async () => {
    b = await launch();
    page = b.page;
    await page.goto(`${base()}#/play/f2fs?workload=MWUM&unlinks=500&remote_ns=1500&nat_scan_ns=12000&seed=1`);
  });
  afterAll(async () => {
    await screenshot(page, "play-f2fs");
    await b.close();
  });

  it("reveals CLUE's speed-up at 120 cores as the f2fs core computes it, with a curve per technique", async () => {
    const m = await loadCoreModule("f2fs");
    const at120 = (clue: number) => fxmarkUnlink(m, "MWUM", clue, 120, 500, FXMARK_COSTS, 1).unlinks_per_sec;
    const want = at120(7) / at120(0);
    expect(await page.locator("select").first().inputValue()).toBe("MWUM");
    await page.getByLabel("your guess").fill("15");
    await page.click("text=Run and reveal");
    const reveal = page.locator(".reveal[role=status]");
    await reveal.waitFor();
    expect(await reveal.getAttribute("data-speedup")).toBe(want.toFixed(3));
    expect(await reveal.textContent()).toMatch(/you guessed 15× \(over by \d+%\)/);
    expect(await page.locator("svg g.series").count()).toBe(5);
    expect(await page.locator("svg g.series circle").count()).toBe(5 * 8);
    // the table alternative: upstream at 1 core, in thousands
    expect(await page.locator('tr[data-clue="0"] td').nth(1).textContent()).toBe(`${(fxmarkUnlink(m, "MWUM", 0, 1, 500).unlinks_per_sec / 1000).toFixed(0)}k`);
    await screenshot(page, "play-f2fs-revealed");
  });

  it("a changed cost goes into the link and clears the answer", async () => {
    await page.getByLabel("remote_ns").fill("3000");
    await expect.poll(() => page.url()).toMatch(/remote_ns=3000/);
    expect(await page.locator(".reveal").count()).toBe(0);
  });

  it("draws per-core lock timelines, upstream beside CLUE, span for span and µs for µs as the core traces them", async () => {
    await page.click("text=Run and reveal");
    await page.locator(".reveal[role=status]").waitFor();
    // 30 cores: every 2nd drawn; the choice goes into the link and keeps the answer
    const form = page.getByRole("form", { name: "lock timelines" });
    await form.getByLabel("cores").selectOption("30");
    await expect.poll(() => page.url()).toMatch(/tl_cores=30/);
    expect(await page.locator(".reveal").count()).toBe(1);
    const m = await loadCoreModule("f2fs");
    const costs = { ...FXMARK_COSTS, remote_ns: 3000 };
    for (const clue of [0, 7]) {
      const t = fxmarkTrace(m, "MWUM", clue, 30, 500, { untilNs: 250_000 }, costs, 1);
      expect(t.cores).toHaveLength(15);
      const fig = page.getByTestId(`lock-timeline-${clue}`);
      await expect.poll(() => fig.locator("g.lt-row").count()).toBe(15);
      expect(await fig.locator("figcaption").textContent()).toMatch(/cores 0, 2, …, 28: every 2nd of 30, 15 rows/);
      for (const c of t.cores) {
        const bars = fig.locator(`g.lt-row[data-core="${c.core}"] rect.lt-span`);
        expect(await bars.count()).toBe(c.spans.length);
        expect(await bars.evaluateAll((rs) => rs.filter((r) => r.getAttribute("data-kind") === "wait").length)).toBe(c.spans.filter((s) => s.kind === "wait").length);
      }
      // the table alternative: µs per core, as timelineTotals adds them up
      const totals = timelineTotals(t);
      const rows = fig.locator("table tbody tr");
      expect(await rows.count()).toBe(15);
      for (const [i, x] of totals.entries()) {
        const cells = await rows.nth(i).locator("td").allTextContents();
        expect(cells).toEqual([String(x.core), String(x.socket), ...LOCKS.map((l) => x.wait_us[l].toFixed(1)), x.holding_us.toFixed(1), x.working_us.toFixed(1)]);
      }
    }
    // MWUM: upstream's cores spend the window queued on the shared directory
    const up = timelineTotals(fxmarkTrace(m, "MWUM", 0, 30, 500, { untilNs: 250_000 }, costs, 1));
    expect(up.reduce((n, c) => n + c.wait_us.dir, 0)).toBeGreaterThan(0.5 * 15 * 250);
    // the window by keyboard: a control reached with Tab
    await form.getByLabel("cores").focus();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.closest("label")?.textContent)).toMatch(/^window/);
    await form.getByLabel("window").selectOption("1000");
    await expect.poll(() => page.url()).toMatch(/tl_us=1000/);
    await expect.poll(() => page.getByTestId("lock-timeline-7").locator("figcaption").textContent()).toMatch(/0\.0–1000\.0 µs/);
    await screenshot(page, "play-f2fs-lock-timeline");
  });
});

describe("/play/f2fs: the free-NID scan", () => {
  it("steps through the model's scans under upstream and the heuristic, with the core's lists and counters", async () => {
    const b = await launch();
    try {
      await b.page.goto(`${base()}#/play/f2fs`);
      const m = await loadCoreModule("f2fs");
      const steps = benchWorkloadSteps(8000, GUEST_NAT_BLOCKS * NAT_ENTRY_PER_BLOCK);
      for (const [label, clue] of [["upstream", 0], ["heuristic (2)", 2]] as const) {
        const frames = nidFrames(m, { clue }, steps);
        await b.page.getByLabel(label, { exact: true }).check();
        const view = b.page.getByTestId("nat-view");
        await view.waitFor();
        expect(await view.getByTestId("position").textContent()).toBe(`0 / ${frames.length - 1} scans`);
        expect(await b.page.getByTestId("nat-free").textContent()).toBe(String(frames[0].state.free));
        await view.getByTestId("play").focus();
        await b.page.keyboard.press("End");
        const last = frames.at(-1)!;
        await expect.poll(() => b.page.getByTestId("nat-free").textContent()).toBe(String(last.state.free));
        expect(await b.page.getByTestId("nat-counters").locator("td").nth(4).textContent()).toBe(String(last.state.counters.nids_scanned));
        const shown = await b.page.getByTestId("nat-scans").locator("li").allTextContents();
        expect(shown).toHaveLength(last.scans.length);
        expect(shown[0]).toContain(`from NID ${last.scans[0].start} to ${last.scans[0].end}`);
      }
      await screenshot(b.page, "play-f2fs-nid");
    } finally {
      await b.close();
    }
  });
});

describe("/play/exfat", () => {
  it("takes a file from the link, reveals its discard requests as the exfat core counts them, and replays the delete", async () => {
    const b = await launch();
    try {
      await b.page.goto(`${base()}#/play/exfat?clusters=1000&runs=8&batch=0`);
      expect(await b.page.getByLabel(/file size/).inputValue()).toBe("1000");
      const core = ExfatCore.create(await loadCoreModule("exfat"), 1000 + 8 + 64, 3);
      const want = new ExfatLab(core).delete(new ExfatLab(core).createFragmented(1000, 8), DiscardPolicy.PerCluster);
      core.dispose();
      expect(want.discards.length).toBe(1000); // one per cluster
      expect(want.otherPolicyDiscards).toBe(8); // one per run
      await b.page.getByLabel("your guess").fill("8");
      await b.page.click("text=Run and reveal");
      const reveal = b.page.locator(".reveal[role=status]");
      await reveal.waitFor();
      expect(await b.page.getByTestId("play-discards").textContent()).toBe(String(want.discards.length));
      expect(await b.page.getByTestId("play-other").textContent()).toBe(String(want.otherPolicyDiscards));
      expect(await reveal.textContent()).toMatch(/you guessed 8/);
      // replay: the delete's 2000 events (a clear and a discard per cluster), to the end by keyboard
      expect(await b.page.getByTestId("position").textContent()).toBe(`0 / ${want.events.length / 4} events`);
      await b.page.getByTestId("play").focus();
      await b.page.keyboard.press("End");
      await expect.poll(() => b.page.getByTestId("position").textContent()).toBe(`${want.events.length / 4} / ${want.events.length / 4} events`);
      // the table beside the picture: the file's runs, and the requests the replay outlined (the last 256)
      await b.page.locator("summary", { hasText: "The files' clusters as a table" }).click();
      const files = b.page.locator("details.table-alt").first().locator("tbody tr");
      await expect.poll(() => files.count()).toBe(2); // the file and the spacer file between its runs
      expect(await files.first().locator("td").nth(2).textContent()).toMatch(/^(\d+(–\d+)?, ){7}\d+(–\d+)?$/); // 8 runs
      await b.page.locator("summary", { hasText: "The discard requests as a table" }).click();
      expect(await b.page.locator("summary", { hasText: "The discard requests as a table" }).textContent()).toMatch(/\(256 rows\)/);
      await screenshot(b.page, "play-exfat");
      await b.page.getByLabel("1: batched (≥ 6.15)").check();
      await expect.poll(() => b.page.url()).toMatch(/batch=1/);
      expect(await b.page.locator(".reveal").count()).toBe(0);
    } finally {
      await b.close();
    }
  });
});

describe("/play/exfat-dir", () => {
  it("takes its directory script from the link, reveals the examined-entries ratio as the exfat core counts it, and draws both directories", async () => {
    const b = await launch();
    try {
      await b.page.goto(`${base()}#/play/exfat-dir?files=600&remove=4&long=80`);
      const m = await loadCoreModule("exfat");
      const ops = dirScenarioOps({ files: 600, removeEvery: 4, longNames: 80 });
      const [hint, old] = [true, false].map((h) => dirRun(m, h, ops));
      await b.page.getByLabel("your guess").fill("3");
      await b.page.click("text=Run and reveal");
      const reveal = b.page.locator(".reveal[role=status]");
      await reveal.waitFor();
      const ratio = old.examined / hint.examined;
      expect(await reveal.getAttribute("data-ratio")).toBe(ratio.toFixed(3));
      expect(await reveal.textContent()).toMatch(/you guessed 3× \((over|under) by \d+%\)/);
      expect(await b.page.getByTestId("examined-1").textContent()).toBe(String(hint.examined));
      expect(await b.page.getByTestId("examined-0").textContent()).toBe(String(old.examined));
      // the slots drawn are the model's, slot for slot
      expect(await b.page.getByTestId("slots-1").getAttribute("data-slots")).toBe(slotRuns(hint.slots));
      expect(await b.page.getByTestId("slots-0").getAttribute("data-slots")).toBe(slotRuns(old.slots));
      // the search sweeping across the slots, create by create: the core's records, in words
      const sweeps = [true, false].map((h) => dirSweeps(m, h, ops));
      const words = (sw: (typeof sweeps)[number][number]) =>
        sw.searches.map((q) => `examined ${q.examined} from slot ${q.start}${q.result === null ? ", found no room (the directory grows a cluster)" : `, found room at ${q.result}`}`).join("; then ");
      const view = b.page.getByTestId("dir-sweep");
      // 680 creates: the first 50 and the last 350 are kept; step 369 is create 650, a long name after the removals
      expect(sweeps[0][369].create).toBe(650);
      await view.getByTestId("scrub").fill("369");
      await expect.poll(() => view.getByTestId("sweep-op").textContent()).toMatch(/^Create 650: file-with-long-name-650 /);
      for (const [i, h] of [[0, 1], [1, 0]] as const) expect(await view.getByTestId(`sweep-${h}`).textContent()).toBe(words(sweeps[i][369]));
      expect(sweeps[1][369].searches[0].examined).toBeGreaterThan(100 * sweeps[0][369].searches[0].examined);
      await view.getByTestId("step").focus();
      await b.page.keyboard.press("ArrowRight");
      await expect.poll(() => view.getByTestId("sweep-op").textContent()).toMatch(/^Create 651: /);
      await screenshot(b.page, "play-exfat-dir");
      // a changed parameter goes into the link and clears the answer
      await b.page.getByLabel(/then create long names/).fill("10");
      await expect.poll(() => b.page.url()).toMatch(/files=600&remove=4&long=10/);
      expect(await b.page.locator(".reveal").count()).toBe(0);
    } finally {
      await b.close();
    }
  });
});

describe("/play/write-path", () => {
  it("predicts and reveals how far down the writer goes, from the traces our kernel recorded, with the call tree", async () => {
    const b = await launch();
    try {
      await b.page.goto(`${base()}#/play/write-path?trace=direct`);
      await b.page.getByLabel("your guess").selectOption("driver");
      await b.page.getByRole("button", { name: "Reveal" }).click();
      const reveal = b.page.locator(".reveal[role=status]");
      await reveal.waitFor();
      expect(await reveal.getAttribute("data-deepest")).toBe("driver");
      expect(await reveal.textContent()).toMatch(/your prediction was right.*vfs_write → ext4_file_write_iter → iomap_dio_rw → .* → submit_bio/);
      expect(await b.page.locator('[role="treeitem"][data-call="loop_queue_rq"]').count()).toBeGreaterThan(0);
      await screenshot(b.page, "play-write-path");
      await b.page.getByLabel("a buffered write()").check();
      await expect.poll(() => b.page.url()).toMatch(/trace=buffered/);
      await b.page.getByRole("button", { name: /Reveal/ }).click();
      await expect.poll(() => b.page.locator(".reveal[role=status]").getAttribute("data-deepest")).toBe("page cache");
      expect(await b.page.locator(".reveal").textContent()).toMatch(/never calls submit_bio/);
    } finally {
      await b.close();
    }
  });
});

describe("/play/ext4", () => {
  it("reveals LBS's checksum bytes against bigalloc's as the ext4 core counts them, in a chart and a table", async () => {
    const b = await launch();
    try {
      await b.page.goto(`${base()}#/play/ext4?mode=direct`);
      const m = await loadCoreModule("ext4");
      const [, big, lbs] = LAYOUTS.map((l) => ext4WriteFile(m, l, true, 64 << 20, 65536));
      await b.page.getByLabel("your guess").fill("16");
      await b.page.click("text=Run and reveal");
      const reveal = b.page.locator(".reveal[role=status]");
      await reveal.waitFor();
      expect(await reveal.getAttribute("data-ratio")).toBe((lbs.csum_bytes / big.csum_bytes).toFixed(3));
      expect(await b.page.locator("svg g.series").count()).toBe(3);
      expect(await b.page.locator('table[aria-label="checksum bytes per byte written and allocations"] tr[data-layout="64k (LBS)"] td').nth(5).textContent()).toBe(`${(lbs.csum_bytes / (64 << 20)).toFixed(4)} (${lbs.allocations} allocations)`);
      // what reaches the device with 4 KiB direct writes: the model's zeros (8.5x on 64 KiB blocks, as the guest measured)
      for (const l of LAYOUTS) {
        const r = ext4WriteFile(m, l, true, 64 << 20, 4096);
        expect(await b.page.getByTestId(`device-${l.name}`).locator("td").nth(1).textContent()).toBe(`${((64 * 2 ** 20 + r.zero_bytes) / 2 ** 26).toFixed(2)}×`);
      }
      expect(await b.page.getByTestId("device-64k (LBS)").locator("td").nth(1).textContent()).toBe("8.50×");
      await b.page.getByLabel(/buffered/).check();
      await expect.poll(() => b.page.url()).toMatch(/mode=buffered/);
    } finally {
      await b.close();
    }
  });

  it("draws the real volumes' block bitmaps group by group, with the counts the inspector reads", async () => {
    const b = await launch();
    try {
      await b.page.goto(`${base()}#/play/ext4`);
      await b.page.getByRole("button", { name: "Show the real volumes" }).click();
      await b.page.getByTestId("ext4-bitmaps").waitFor();
      const m = await loadCoreModule("inspect");
      const layouts = [["4k blocks", "ext4-4k"], ["bigalloc 64k clusters", "ext4-bigalloc"], ["64k blocks (LBS)", "ext4-64k"]];
      for (const [layout, file] of layouts) {
        const bytes = gunzipSync(readFileSync(new URL(`../wasm/tests/images/${file}.img.gz`, import.meta.url)));
        const report = inspectImage(m, bytes) as Ext4Report;
        const rows = b.page.locator(`tr[data-layout="${layout}"]`);
        expect(await rows.count()).toBe(report.groups_count);
        for (const g of report.groups) {
          const used = g.clusters - (g.bitmap_free_clusters ?? g.free_clusters);
          expect(await rows.nth(g.group).locator("td").nth(4).textContent()).toBe(String(used));
        }
        expect(await b.page.locator(`.ext4-volume[data-layout="${layout}"] canvas`).count()).toBe(report.groups_count);
      }
      // same scale: the 64k volume's strips together are as wide as the 4k volume's
      const width = (layout: string) =>
        b.page.locator(`.ext4-volume[data-layout="${layout}"] canvas`).evaluateAll((cs) => cs.reduce((n, c) => n + c.getBoundingClientRect().width, 0));
      expect(Math.abs((await width("64k blocks (LBS)")) - (await width("4k blocks")))).toBeLessThan(3);
      await screenshot(b.page, "play-ext4");
    } finally {
      await b.close();
    }
  });
});

describe("/play/vfat", () => {
  it("shows the blog series' name under three mounts as the vfat core writes it, entries included", async () => {
    const b = await launch();
    try {
      await b.page.goto(`${base()}#/play/vfat?name=${encodeURIComponent("ＳＪＩＳ")}`);
      expect(await b.page.getByLabel("file name").inputValue()).toBe("ＳＪＩＳ");
      const m = await loadCoreModule("vfat");
      const want = [vfatName(m, "ＳＪＩＳ", "utf8", 932), vfatName(m, "ＳＪＩＳ", "utf8", 437), vfatName(m, "ＳＪＩＳ", "iso8859-1", 932)];
      await b.page.getByLabel("no").check();
      await b.page.click("text=Run and reveal");
      const reveal = b.page.locator(".reveal[role=status]");
      await reveal.waitFor();
      expect(await reveal.getAttribute("data-verdict")).toBe("lost");
      expect(await reveal.textContent()).toMatch(/as you predicted/);
      const rows = b.page.locator("table[aria-label='what each mount writes'] tbody tr");
      for (let i = 0; i < 3; i++) {
        expect(await rows.nth(i).locator("td").nth(1).textContent()).toBe(hex(want[i].short));
        expect(await rows.nth(i).locator("td").nth(3).textContent()).toBe(want[i].asCp932);
      }
      expect(await rows.nth(0).locator("td").nth(3).textContent()).toBe("ＳＪＩＳ"); // cp932 has the letters
      expect(await rows.nth(1).locator("td").nth(2).textContent()).toBe("____~1"); // cp437 has not
      expect((await b.page.getByTestId("entries-0").textContent())!.trim().split("\n")).toHaveLength(want[0].lfnSlots + 1);
      await screenshot(b.page, "play-vfat");
      await b.page.getByLabel("file name").fill("README.TXT");
      await expect.poll(() => b.page.url()).toMatch(/name=README\.TXT/);
    } finally {
      await b.close();
    }
  });

  it("finds the name on the real volume the guest's kernel wrote: the inspector's entry is the model's under each mount", async () => {
    const b = await launch();
    try {
      // a name the volume does not hold: the page offers the ones it does
      await b.page.goto(`${base()}#/play/vfat?name=nothere.txt`);
      await b.page.getByTestId("vfat-disk-names").getByRole("button", { name: "x[1].c" }).click();
      expect(await b.page.getByLabel("file name").inputValue()).toBe("x[1].c");
      await b.page.getByRole("button", { name: "Show it on the real volume" }).click();
      const rows = b.page.locator("table[aria-label='the real volume against the model'] tbody tr");
      await rows.first().waitFor({ timeout: 30_000 });
      // the inspector in Node on the same image, the model for the same sequence
      const m = await loadCoreModule("vfat");
      const report = inspectImage(await loadCoreModule("inspect"), gunzipSync(readFileSync(new URL("../wasm/tests/images/vfat-names.img.gz", import.meta.url)))) as VfatReport;
      for (const [i, mt] of VFAT_MOUNTS.entries()) {
        const existing: Uint8Array[] = [];
        let mine = null;
        for (const n of VFAT_NAMES) {
          try {
            const v = vfatName(m, n, mt.io, mt.codepage, existing);
            existing.push(v.short);
            if (n === "x[1].c") mine = v;
          } catch {
            // a case-insensitive duplicate: nothing created
          }
        }
        const disk = report.files.find((f) => f.path.startsWith(`/${mt.dir}/`) && f.short_raw === hex(mine!.short))!;
        expect(await rows.nth(i).getAttribute("data-same")).toBe("yes");
        expect((await rows.nth(i).locator("td").nth(1).textContent())!.replace(/ /g, "")).toBe(disk.short_raw);
        expect(await rows.nth(i).locator("td").nth(4).textContent()).toBe(disk.long_name ?? "(none)");
      }
    } finally {
      await b.close();
    }
  });
});

describe("bad input in a playground's fields and link", () => {
  it("a link with bad parameters says which, keeps them in the fields, and runs nothing until they are right", async () => {
    const b = await launch();
    try {
      await b.page.goto(`${base()}#/play/exfat?clusters=-5&runs=abc&batch=7`);
      const problems = b.page.getByTestId("link-problems");
      await expect.poll(() => problems.textContent()).toMatch(/clusters=-5: -5 is outside 1–60000; runs=abc: "abc" is not a whole number; batch=7: 7 is outside 0–1/);
      expect(await b.page.getByLabel("file size in 4 KiB clusters").inputValue()).toBe("-5"); // what the link said, not a substitute
      expect(await b.page.getByLabel("pieces (contiguous runs)").getAttribute("aria-invalid")).toBe("true");
      const run = b.page.getByRole("button", { name: /Run/ });
      expect(await run.isDisabled()).toBe(true);
      // put right, field by field: the message goes, the link follows what was typed
      await b.page.getByLabel("file size in 4 KiB clusters").fill("300");
      await b.page.getByLabel("pieces (contiguous runs)").fill("4");
      await b.page.getByLabel(/0: per cluster/).check();
      expect(await problems.count()).toBe(0);
      expect(b.page.url()).toMatch(/#\/play\/exfat\?clusters=300&runs=4&batch=0$/);
      expect(await run.isDisabled()).toBe(false);
      // more pieces than clusters is named on the pieces field, which keeps its 4
      await b.page.getByLabel("file size in 4 KiB clusters").fill("2");
      expect(await b.page.getByLabel("pieces (contiguous runs)").inputValue()).toBe("4");
      expect(await b.page.locator(".field-error").allTextContents()).toEqual(["at most the file's 2 clusters"]);
      expect(await run.isDisabled()).toBe(true);
      // a prediction of -5 requests is refused beside the box
      await b.page.getByLabel("file size in 4 KiB clusters").fill("300");
      await b.page.getByLabel("your guess").fill("-5");
      expect(await b.page.locator(".field-error").allTextContents()).toEqual(["-5 is outside 0–100000000"]);
      expect(await run.isDisabled()).toBe(true);
      await screenshot(b.page, "play-exfat-bad-input");
    } finally {
      await b.close();
    }
  });

  it("/play/blk: an iodepth of -5 is an error beside the field, not 45 and a run", async () => {
    const b = await launch();
    try {
      await b.page.goto(`${base()}#/play/blk`);
      await b.page.getByLabel("iodepth").fill("-5");
      expect(await b.page.getByLabel("iodepth").inputValue()).toBe("-5");
      expect(await b.page.locator(".field-error").allTextContents()).toEqual(["-5 is outside 1–64"]);
      expect(await b.page.getByRole("button", { name: /Run/ }).isDisabled()).toBe(true);
      expect(b.page.url()).toMatch(/iodepth=-5/);
      await b.page.getByLabel("iodepth").fill("99999999999");
      expect(await b.page.locator(".field-error").allTextContents()).toEqual(["99999999999 is outside 1–64"]);
      await b.page.getByLabel("iodepth").fill("8");
      expect(await b.page.locator(".field-error").count()).toBe(0);
      expect(await b.page.getByRole("button", { name: /Run/ }).isDisabled()).toBe(false);
    } finally {
      await b.close();
    }
  });
});
