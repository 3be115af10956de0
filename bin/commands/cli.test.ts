// The fslab command line as a user runs it: the same wasm build as the page, results on
// stdout (JSON with --json), errors that name the problem on stderr with a non-zero status.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repo = fileURLToPath(new URL("../../", import.meta.url));
const fslab = (...args: string[]) => {
  const r = spawnSync(process.execPath, [`${repo}bin/fslab.mjs`, ...args], { encoding: "utf8", cwd: repo });
  return { status: r.status, out: r.stdout, err: r.stderr };
};
const DD_TRACE = "web/src/topics/blk/traces/blk-nullb-dd.trace.gz";

describe("fslab simulate vfat", () => {
  it("writes seed 003's three outcomes for ＳＪＩＳ, and the ~N tails a sequence of names gets", () => {
    const r = fslab("simulate", "vfat", "--json", "ＳＪＩＳ", "longname1.txt", "longname2.txt");
    expect(r.status).toBe(0);
    const rows = JSON.parse(r.out).rows as Array<{ mount: string; name: string; short: string; cp437: string; cp932: string; long_name: string | null }>;
    expect(rows).toHaveLength(9);
    const at = (mount: string, name: string) => rows.find((x) => x.mount === mount && x.name === name)!;
    expect(at("utf8:932", "ＳＪＩＳ").cp932).toBe("ＳＪＩＳ");
    expect(at("utf8:437", "ＳＪＩＳ").cp437).toBe("____~1");
    expect(at("iso8859-1:932", "ＳＪＩＳ").long_name).toBe("ï¼³ï¼ªï¼©ï¼³");
    expect(at("utf8:437", "longname2.txt").cp437).toBe("LONGNA~2.TXT");
  });

  it("refuses a mount it does not model, and no names", () => {
    expect(fslab("simulate", "vfat", "--mount", "utf16:850", "a").err).toMatch(/--mount: "utf16:850" is not iocharset:codepage/);
    const r = fslab("simulate", "vfat");
    expect(r.status).not.toBe(0);
    expect(r.err).toMatch(/give one or more names/);
  });
});

describe("fslab simulate blk --trace --decisions", () => {
  it("judges each of the kernel's mq-deadline decisions by the model, with the trace's tunables", () => {
    const r = fslab("simulate", "blk", "--trace", DD_TRACE, "--decisions", "--json");
    expect(r.status).toBe(0);
    const j = JSON.parse(r.out);
    expect(j).toMatchObject({ device: "254,1", dispatches: 358, lists_agree: 358, same_request: 358, same_reasons: 358, differences: [] });
    expect(j.tunables).toMatchObject({ read_expire_ms: 100, write_expire_ms: 400, fifo_batch: 16 });
  });

  it("an option overrides the trace's tunable, and then the model differs", () => {
    const r = fslab("simulate", "blk", "--trace", DD_TRACE, "--decisions", "--fifo-batch", "8");
    expect(r.status).toBe(0);
    expect(r.out).toMatch(/fifo_batch 8/);
    expect(r.out).toMatch(/#8: kernel R\d+@\d+ \(batch\/sorted, batching 9/);
  });

  it("says what is missing from a trace without the tracepoint", () => {
    const r = fslab("simulate", "blk", "--trace", "web/src/topics/blk/traces/blk-nullb-mq-deadline.trace.gz", "--decisions");
    expect(r.status).not.toBe(0);
    expect(r.err).toMatch(/no mq_deadline:dd_dispatch_request events/);
    expect(fslab("simulate", "blk", "--decisions").err).toMatch(/--decisions: needs --trace FILE/);
  });
});
