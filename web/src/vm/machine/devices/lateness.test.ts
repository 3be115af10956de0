// The host's lateness per data request (lateness.ts) and the guest's `sdcard late` and `sdcard
// timing` requests (slot-channel.ts). The device's own bookkeeping: sdhci.test.ts.
import { describe, expect, it } from "vitest";
import { LatenessLog } from "./lateness";
import { lateAnswer, slotRequest } from "./slot-channel";
import { SdhciDevice } from "./sdhci";

describe("LatenessLog", () => {
  it("sums an event's lateness into the current request, and nothing before the first", () => {
    const log = new LatenessLog();
    log.add(5); // no request yet
    log.request();
    log.add(0.5);
    log.add(-0.2);
    log.request();
    expect(log.take().map((x) => +x.toFixed(6))).toEqual([0.3, 0]);
    expect(log.take()).toEqual([]);
  });

  it("keeps the last `limit` requests", () => {
    const log = new LatenessLog(3);
    for (let i = 0; i < 5; i++) {
      log.request();
      log.add(i);
    }
    expect(log.take()).toEqual([2, 3, 4]);
  });
});

describe("sdcard late and sdcard timing", () => {
  it("a summary by nearest rank, or each request's ms", () => {
    const ms = [...Array(100).keys()].map((i) => i / 10); // 0.0 .. 9.9
    expect(lateAnswer(ms, false)).toBe("100 data requests; the host answered 98 of them more than 0.1 ms late; lateness p50 4.900 ms, p99 9.800 ms, max 9.900 ms");
    expect(lateAnswer([0.25, 0], true)).toBe("0.250 0.000");
    expect(lateAnswer([], false)).toBe("no data request since the last ask");
    expect(lateAnswer([], true)).toBe("");
  });

  it("the slot answers late and timing, and refuses what they do not take", () => {
    const sd = new SdhciDevice(null);
    expect(slotRequest(sd, "late")).toBe("ok no data request since the last ask");
    expect(slotRequest(sd, "late --each")).toBe("ok ");
    expect(slotRequest(sd, "late all")).toBe('error late takes nothing, or "--each"');
    expect(slotRequest(sd, "timing off")).toBe("ok timing off");
    expect(sd.timed).toBe(false);
    expect(slotRequest(sd, "timing on")).toBe("ok timing on");
    expect(sd.timed).toBe(true);
    expect(slotRequest(sd, "timing")).toBe("error timing takes on or off");
    expect(slotRequest(sd, "timing maybe")).toBe("error timing takes on or off");
    // more than --each can list through the guest's tty line: said, and the log kept for a summary
    for (let i = 0; i < 601; i++) sd.lateness.request();
    expect(slotRequest(sd, "late --each")).toBe("error 601 data requests since the last ask, more than --each can list (600): ask more often (any sdcard late starts the count again)");
    expect(slotRequest(sd, "late")).toMatch(/^ok 601 data requests; the host answered 0 of them/);
    expect(slotRequest(sd, "frobnicate")).toBe('error unknown request "frobnicate" (status, insert, eject, serial, late, timing)');
  });
});
