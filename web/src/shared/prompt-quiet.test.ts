// promptQuiet against a shell whose lines and business the test drives, on fake timers
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PROMPT_QUIET_MAX_MS, PROMPT_QUIET_MS, promptQuiet } from "./prompt-quiet";

function shell() {
  let busy = false;
  let lines = 0;
  let idle: Array<() => void> = [];
  return {
    vm: {
      whenIdle: () => (busy ? new Promise<void>((r) => idle.push(r)) : Promise.resolve()),
      shellBusy: () => busy,
      shellLines: () => lines,
    },
    enter() {
      lines++;
      busy = true;
    },
    back() {
      busy = false;
      for (const r of idle.splice(0)) r();
    },
  };
}

describe("promptQuiet", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  const settled = (p: Promise<void>) => {
    let done = false;
    void p.then(() => (done = true));
    return () => done;
  };

  it("resolves once the prompt has stood its quiet time, not before", async () => {
    const s = shell();
    const done = settled(promptQuiet(s.vm, () => false));
    await vi.advanceTimersByTimeAsync(PROMPT_QUIET_MS - 50);
    expect(done()).toBe(false);
    await vi.advanceTimersByTimeAsync(100);
    expect(done()).toBe(true);
  });

  it("waits again for a command entered meanwhile, and for one still running", async () => {
    const s = shell();
    const done = settled(promptQuiet(s.vm, () => false));
    await vi.advanceTimersByTimeAsync(100);
    s.enter(); // typed at the first prompt
    await vi.advanceTimersByTimeAsync(PROMPT_QUIET_MS); // the first wait ends with it running
    expect(done()).toBe(false);
    await vi.advanceTimersByTimeAsync(600);
    s.back();
    await vi.advanceTimersByTimeAsync(PROMPT_QUIET_MS - 50);
    expect(done()).toBe(false);
    await vi.advanceTimersByTimeAsync(PROMPT_QUIET_MS);
    expect(done()).toBe(true);
  });

  it("gives up waiting after PROMPT_QUIET_MAX_MS of commands one after another", async () => {
    const s = shell();
    const done = settled(promptQuiet(s.vm, () => false));
    for (let t = 0; t < PROMPT_QUIET_MAX_MS - 200; t += 200) {
      s.enter();
      await vi.advanceTimersByTimeAsync(100);
      s.back();
      await vi.advanceTimersByTimeAsync(100);
      expect(done()).toBe(false);
    }
    s.enter(); // and one that runs on
    await vi.advanceTimersByTimeAsync(300);
    expect(done()).toBe(true);
  });
});
