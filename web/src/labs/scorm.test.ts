// The lab's side of SCORM (scorm.ts) without a page: the progress pointer read back strictly
// (fuzzed: anything an LMS could hand back is read or refused with a reason, never thrown),
// SCORM 1.2's 4,096-character suspend_data held by us where scorm-again allows 64,000, an LMS
// that answers errors or disappears, the API found up the frames and the opener, and the times.
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { Scorm12API, Scorm2004API } from "scorm-again";
import { BridgeChannel, findApi, LmsError, LmsSession, parseSuspendData, SUSPEND_LIMIT, suspendDataOf, timespan12, timespan2004, type LmsReport } from "./scorm";
import { freshProgress } from "./progress";

const report = (over: Partial<LmsReport> = {}): LmsReport => ({
  complete: false,
  score: { raw: 1, max: 5 },
  interactions: [{ id: "s2-q1", description: "How many?", answer: "42", expected: "42", correct: true }],
  suspend: JSON.stringify({ v: 1, lab: "x", step: 1, passed: [0] }),
  location: "step-2",
  sessionSeconds: 75.5,
  ...over,
});

describe("suspend_data, read back", () => {
  it("gives the pointer of this lab, or names what is wrong", () => {
    const p = freshProgress("sd-card", "h", "g", ["a", "b", "c"]);
    p.steps[0].passedAt = 1;
    p.step = 1;
    const ok = suspendDataOf(p);
    expect(parseSuspendData(ok, "sd-card", 3, "1.2")).toEqual({ v: 1, lab: "sd-card", step: 1, passed: [0] });
    expect(parseSuspendData(ok, "exfat-discard", 3, "1.2")).toEqual({ error: `the LMS's suspend_data is another lab's ("sd-card")` });
    expect(parseSuspendData("viewed=1,2,3|slide=31", "sd-card", 3, "1.2")).toEqual({ error: "the LMS's suspend_data is not this lab's (not JSON)" });
    expect(parseSuspendData(JSON.stringify({ v: 1, lab: "sd-card", step: 7, passed: [] }), "sd-card", 3, "1.2")).toMatchObject({ error: expect.stringMatching(/points at step 7: this lab has 3/) });
    expect(parseSuspendData(JSON.stringify({ v: 1, lab: "sd-card", step: 0, passed: [0, 0] }), "sd-card", 3, "1.2")).toMatchObject({ error: expect.stringMatching(/passed steps/) });
    expect(parseSuspendData(null, "sd-card", 3, "1.2")).toEqual({ error: "the LMS's suspend_data is not text" });
  });

  it("holds SCORM 1.2's 4,096 characters where scorm-again keeps 64,000", () => {
    // scorm-again takes a 5,000-character suspend_data under 1.2 ...
    const lms = new Scorm12API({ logLevel: 5 });
    lms.loadFromJSON({ core: { student_id: "ann" } });
    const long = JSON.stringify({ v: 1, lab: "x", step: 0, passed: [], pad: "p".repeat(5000) });
    expect(lms.LMSInitialize("")).toBe("true");
    expect(lms.LMSSetValue("cmi.suspend_data", long)).toBe("true");
    // ... we neither read one back nor write one
    expect(parseSuspendData(long, "x", 3, "1.2")).toEqual({ error: `the LMS's suspend_data is ${long.length} characters, over SCORM 1.2's 4096` });
    expect(parseSuspendData(long, "x", 3, "2004")).toMatchObject({ v: 1, lab: "x" });
    const s = new LmsSession("1.2", new Scorm12API({ logLevel: 5 }));
    ((s as unknown as { api: { loadFromJSON(j: unknown): void } }).api).loadFromJSON({ core: { student_id: "ann" } });
    s.start();
    expect(() => s.report(report({ suspend: "x".repeat(SUSPEND_LIMIT["1.2"] + 1) }))).toThrow(/over SCORM 1.2's 4096/);
  });

  it("fuzzed: anything an LMS hands back is read or refused with a reason", () => {
    const near = fc.record({ v: fc.oneof(fc.constant(1), fc.integer()), lab: fc.oneof(fc.constant("x"), fc.string()), step: fc.oneof(fc.integer({ min: -2, max: 5 }), fc.double(), fc.string()), passed: fc.oneof(fc.array(fc.integer({ min: -1, max: 4 })), fc.string(), fc.constant(null)) });
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 5000 }), near.map((o) => JSON.stringify(o)), fc.jsonValue().map((v) => JSON.stringify(v))), fc.constantFrom("1.2" as const, "2004" as const), (text, version) => {
        const r = parseSuspendData(text, "x", 3, version);
        if ("error" in r) expect(r.error).toMatch(/^the LMS's suspend_data/);
        else {
          expect(r.lab).toBe("x");
          expect(r.step).toBeGreaterThanOrEqual(0);
          expect(r.step).toBeLessThan(3);
          expect(r.passed.every((n) => Number.isInteger(n) && n >= 0 && n < 3)).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe("a session with an LMS", () => {
  it("reports into scorm-again's SCORM 1.2 and 2004 runtimes, each value one they accept", () => {
    for (const version of ["1.2", "2004"] as const) {
      const lms = version === "1.2" ? new Scorm12API({ logLevel: 5 }) : new Scorm2004API({ logLevel: 5 });
      lms.loadFromJSON(version === "1.2" ? { core: { student_id: "ann", student_name: "Ann" } } : { learner_id: "ann", learner_name: "Ann" });
      const s = new LmsSession(version, lms);
      expect(s.start()).toEqual({ learnerId: "ann", learnerName: "Ann", suspend: "" });
      s.report(report());
      s.report(report({ complete: true, score: { raw: 5, max: 5 } }));
      const cmi = JSON.parse(lms.renderCMIToJSONString()).cmi;
      if (version === "1.2") expect([cmi.core.lesson_status, cmi.core.score.raw, cmi.core.exit]).toEqual(["passed", "5", ""]);
      else expect([cmi.completion_status, cmi.success_status, cmi.score.scaled]).toEqual(["completed", "passed", "1"]);
      s.finish();
    }
  });

  it("an LMS that answers errors is named in its own words", () => {
    const lms = new Scorm12API({ logLevel: 5 });
    lms.loadFromJSON({ core: { student_id: "ann" } });
    expect(lms.LMSInitialize("")).toBe("true"); // a session already open (another SCO's, say)
    const s = new LmsSession("1.2", lms);
    expect(() => s.start()).toThrow(LmsError);
    expect(() => s.start()).toThrow(/the LMS refused to start a session \(\d+: .+\)/);
  });

  it("an LMS without a learner, one that throws, one that is gone", () => {
    const none = new Scorm12API({ logLevel: 5 });
    expect(() => new LmsSession("1.2", none).start()).toThrow(/gave no learner ID/);
    const throwing = { LMSInitialize: () => { throw new Error("network down"); }, LMSGetLastError: () => "0" };
    expect(() => new LmsSession("1.2", throwing).start()).toThrow(/LMSInitialize\(\) failed: network down/);
    expect(() => new LmsSession("2004", {}).start()).toThrow(/has no Initialize\(\)/);
  });
});

describe("finding the API", () => {
  const frame = (props: Record<string, unknown>, parent?: Window, opener?: Window | null): Window => {
    const w = { ...props, opener: opener ?? null } as unknown as Window & { parent: Window };
    (w as { parent: Window }).parent = parent ?? w;
    return w;
  };

  it("in the window, up its parents (7 at most), then in its opener's", () => {
    const api = { LMSInitialize() {} };
    const top = frame({ API: api });
    let w = top;
    for (let i = 0; i < 7; i++) w = frame({}, w);
    expect(findApi(w, "1.2")).toBe(api);
    expect(findApi(frame({}, w), "1.2")).toBeNull(); // 8 levels up: the standard's search stops
    expect(findApi(frame({}, undefined, top), "1.2")).toBe(api);
    expect(findApi(frame({ API: api }), "2004")).toBeNull();
    // a frame of another origin throws when read: passed over
    // (a cross-origin WindowProxy lets its parent be read, nothing of its own)
    const foreign: Window = new Proxy({} as Window, { get: (_t, k) => { if (k === "parent") return foreign; throw new DOMException("cross-origin", "SecurityError"); } });
    const child = frame({}, foreign);
    expect(findApi(child, "1.2")).toBeNull();
  });

  it("says the times in each version's format", () => {
    expect(timespan12(3725.5)).toBe("0001:02:05.50");
    expect(timespan2004(3725.5)).toBe("PT1H2M5.5S");
  });
});

describe("the bridge to a package's launch page (--base)", () => {
  /** a lab's window in a frame: its parent, and the messages it is sent */
  const framed = () => {
    const listeners: Array<(e: Partial<MessageEvent>) => void> = [];
    const parent = { postMessage: vi.fn() };
    const win = {
      parent,
      addEventListener: (_t: string, f: (e: Partial<MessageEvent>) => void) => listeners.push(f),
      removeEventListener: (_t: string, f: (e: Partial<MessageEvent>) => void) => listeners.splice(listeners.indexOf(f), 1),
    } as unknown as Window;
    const deliver = (e: Partial<MessageEvent>) => [...listeners].forEach((f) => f(e));
    return { win, parent, deliver };
  };

  it("takes the session from its parent alone, pins its origin, and sends the report there", async () => {
    const { win, parent, deliver } = framed();
    const connecting = BridgeChannel.connect(win, 5000);
    expect(parent.postMessage).toHaveBeenCalledWith({ fslab: "scorm", type: "hello" }, "*");
    const start = { fslab: "scorm", type: "start", version: "1.2", learnerId: "ann", learnerName: "Ann", suspend: "" };
    deliver({ source: {} as Window, origin: "https://evil.example", data: { ...start, learnerId: "mallory" } }); // another frame
    deliver({ source: parent as unknown as Window, origin: "https://lms.example", data: { fslab: "other", type: "start" } }); // not ours
    deliver({ source: parent as unknown as Window, origin: "https://lms.example", data: start });
    const r = await connecting;
    if ("error" in r) throw new Error(r.error);
    expect(r.start).toEqual({ learnerId: "ann", learnerName: "Ann", suspend: "" });
    r.channel.report(report());
    expect(parent.postMessage).toHaveBeenLastCalledWith({ fslab: "scorm", type: "report", values: expect.arrayContaining([["cmi.core.score.raw", "1"]]) }, "https://lms.example");
    // a refusal said by the launch page reaches the page; one from elsewhere does not
    const said: string[] = [];
    r.channel.onError = (m) => said.push(m);
    deliver({ source: parent as unknown as Window, origin: "https://evil.example", data: { fslab: "scorm", type: "reported", error: "forged" } });
    deliver({ source: parent as unknown as Window, origin: "https://lms.example", data: { fslab: "scorm", type: "reported", error: "the LMS refused cmi.suspend_data (405: Incorrect Data Type)" } });
    expect(said).toEqual(["the LMS refused cmi.suspend_data (405: Incorrect Data Type)"]);
    r.channel.finish();
    expect(parent.postMessage).toHaveBeenLastCalledWith({ fslab: "scorm", type: "finish" }, "https://lms.example");
  });

  it("a launch page with no LMS, a malformed answer, or none at all: why, in words", async () => {
    for (const [data, why] of [
      [{ fslab: "scorm", type: "no-lms", reason: "no SCORM 1.2 API in the windows around this package" }, /no SCORM 1.2 API/],
      [{ fslab: "scorm", type: "start", version: "3", learnerId: "ann" }, /not a SCORM session/],
      [{ fslab: "scorm", type: "start", version: "1.2", learnerId: { toString: () => "x" } }, /not a SCORM session/],
    ] as const) {
      const { win, parent, deliver } = framed();
      const connecting = BridgeChannel.connect(win, 5000);
      deliver({ source: parent as unknown as Window, origin: "https://lms.example", data });
      expect(await connecting).toEqual({ error: expect.stringMatching(why) });
    }
    vi.useFakeTimers();
    try {
      const { win } = framed();
      const connecting = BridgeChannel.connect(win, 5000);
      vi.advanceTimersByTime(5001);
      expect(await connecting).toEqual({ error: "no launch page answered in 5 s" });
    } finally {
      vi.useRealTimers();
    }
  });
});

