// exFAT's switches (batch_discard, discard_calls, empty_hint), in the guest booted in Node: the switch flips the
// kernel's behaviour in one boot, seen through the events fslab-trace streams and sysfs.
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { loadCoreModule } from "../../shared/node-load";
import { runDirScript } from "./exfat-dir";
import { EV, discardsOf, DiscardPolicy } from "./events";
import { countOf } from "../../shared/events";
import { bootGuest } from "../../../../e2e/guest";

const guest = bootGuest();
const { sh, traced } = guest;

describe("exfat batch_discard", () => {
  // a file written in 4 pieces of 16 clusters, a second file appending a cluster between them
  const setup = `set -e
    umount /mnt/x 2>/dev/null || true; losetup -D; rm -f /tmp/x.img
    truncate -s 64M /tmp/x.img; dev=$(losetup -f --show /tmp/x.img)
    mkfs.exfat -c 4K $dev >/dev/null; mkdir -p /mnt/x; mount -o discard $dev /mnt/x
    for i in 1 2 3 4; do
      dd if=/dev/zero bs=64K count=1 >> /mnt/x/frag 2>/dev/null
      dd if=/dev/zero bs=4K count=1 >> /mnt/x/log 2>/dev/null
    done; sync`;

  it("frees a 4-run file with one discard per run (1) or per cluster (0), same clusters", async () => {
    const runs: Record<number, ReturnType<typeof discardsOf>> = {};
    for (const policy of [1, 0]) {
      await sh(setup);
      await sh(`echo ${policy} > /sys/module/exfat/parameters/batch_discard; echo 0 > /sys/module/exfat/parameters/discard_calls`);
      const ev = await traced("rm /mnt/x/frag; sync", "exfat/exfat_discard");
      runs[policy] = discardsOf(ev);
      expect(+(await sh("cat /sys/module/exfat/parameters/discard_calls"))).toBe(runs[policy].length);
    }
    await sh("echo 1 > /sys/module/exfat/parameters/batch_discard");
    expect(runs[1]).toHaveLength(4);
    expect(runs[1].every((d) => d.count === 16 && d.policy === DiscardPolicy.Batched)).toBe(true);
    expect(runs[0]).toHaveLength(64);
    expect(runs[0].every((d) => d.count === 1 && d.policy === DiscardPolicy.PerCluster)).toBe(true);
    // the same clusters either way
    const clusters = (ds: typeof runs[0]) => ds.flatMap((d) => Array.from({ length: d.count }, (_, i) => d.start + i)).sort((a, b) => a - b);
    expect(clusters(runs[0])).toEqual(clusters(runs[1]));
  });
});

describe("exfat discard_calls", () => {
  // one count per sb_issue_discard() call; the block layer splits a call longer than the
  // device's discard_max_bytes into several requests, which block_rq_issue shows (rwbs D)
  async function callsAndRequests(batch: 0 | 1, maxBytes: number | null): Promise<[number, number, number[]]> {
    await sh(`set -e
      umount /mnt/x 2>/dev/null || true; losetup -D; rm -f /tmp/x.img
      truncate -s 64M /tmp/x.img; dev=$(losetup -f --show /tmp/x.img)
      mkfs.exfat -c 4K $dev >/dev/null; mkdir -p /mnt/x; mount -o discard $dev /mnt/x
      for i in 1 2 3 4; do dd if=/dev/zero bs=64K count=1 >> /mnt/x/frag 2>/dev/null; dd if=/dev/zero bs=4K count=1 >> /mnt/x/log 2>/dev/null; done; sync
      q=/sys/block/\${dev#/dev/}/queue; ${maxBytes === null ? "" : `echo ${maxBytes} > $q/discard_max_bytes;`}
      echo ${batch} > /sys/module/exfat/parameters/batch_discard; echo 0 > /sys/module/exfat/parameters/discard_calls
      T=/sys/kernel/tracing; echo 0 > $T/tracing_on; echo > $T/trace; echo 1 > $T/events/block/block_rq_issue/enable; echo 1 > $T/tracing_on
      rm /mnt/x/frag; sync; echo 0 > $T/tracing_on; echo 0 > $T/events/block/block_rq_issue/enable`);
    const calls = +(await sh("cat /sys/module/exfat/parameters/discard_calls"));
    // "block_rq_issue: 7,0 DS 65536 () 4128 + 128 ..." on the volume's loop device
    const sizes = (await sh(`m=$(stat -c '%t,%T' $(findmnt -n -o SOURCE /mnt/x)); grep " block_rq_issue: $((16#\${m%,*})),$((16#\${m#*,})) D[A-Z]* " /sys/kernel/tracing/trace | sed 's/.* + \\([0-9]*\\) .*/\\1/' || true`))
      .trim().split("\n").filter(Boolean).map(Number);
    return [calls, sizes.length, sizes];
  }

  it("counts exFAT's calls; the device gets one request per call unless discard_max_bytes splits it", async () => {
    expect((await callsAndRequests(1, null)).slice(0, 2)).toEqual([4, 4]);
    const [calls, requests, sizes] = await callsAndRequests(1, 8192);
    expect([calls, requests]).toEqual([4, 32]); // 16 clusters of 4 KiB a run, 2 clusters a request
    expect(sizes.every((n) => n === 16)).toBe(true);
    expect((await callsAndRequests(0, null)).slice(0, 2)).toEqual([64, 64]);
    await sh("echo 1 > /sys/module/exfat/parameters/batch_discard");
  });
});

describe("exfat empty_hint", () => {
  // 200 short names, every third removed, then 60 long names (4 entries each: they do not
  // fit the 3-entry holes); the same steps in the guest and in the model
  const ops = [
    ...Array.from({ length: 200 }, (_, i) => `+f${i + 1}`),
    ...Array.from({ length: 200 }, (_, i) => i + 1).filter((i) => i % 3 === 0).map((i) => `-f${i}`),
    ...Array.from({ length: 60 }, (_, i) => `+file-with-long-name-${i + 201}`),
  ];
  const shell = ops.map((op) => (op[0] === "+" ? `: > /mnt/x/d/${op.slice(1)}` : `rm /mnt/x/d/${op.slice(1)}`)).join("\n");

  it("examines far more entries per create without the 6.2 hint, exactly as the model does", async () => {
    const m = await loadCoreModule("exfat");
    const examined: Record<number, number> = {};
    for (const hint of [1, 0]) {
      await sh(`set -e; umount /mnt/x 2>/dev/null || true; losetup -D; rm -f /tmp/x.img
        truncate -s 32M /tmp/x.img; dev=$(losetup -f --show /tmp/x.img); mkfs.exfat $dev >/dev/null
        mkdir -p /mnt/x; mount $dev /mnt/x; mkdir /mnt/x/d; echo ${hint} > /sys/module/exfat/parameters/empty_hint
        echo 0 > /sys/module/exfat/parameters/empty_entries_examined`);
      const kernel = await traced(shell, "exfat/exfat_empty_search");
      const model = runDirScript(m, hint === 1, ops);
      // record for record: entries examined, where the hint pointed, the slot found
      expect(countOf(kernel, EV.EXFAT_EMPTY_SEARCH)).toBe(countOf(model.events, EV.EXFAT_EMPTY_SEARCH));
      expect(Array.from(kernel)).toEqual(Array.from(model.events));
      examined[hint] = +(await sh("cat /sys/module/exfat/parameters/empty_entries_examined"));
      expect(examined[hint]).toBe(model.examined);
      model.dir.dispose();
    }
    await sh("echo 1 > /sys/module/exfat/parameters/empty_hint");
    // with the hint each create looks at about its own entries; without, at all before them
    expect(examined[1]).toBeLessThan(260 * 10);
    expect(examined[0]).toBeGreaterThan(examined[1] * 10);
  });
});
