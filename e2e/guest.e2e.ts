// The patched guest, booted in Node: what every topic's lab stands on (restores, the agent, a
// guest that stops, real disks reaching the host). Each kernel switch's own tests are its
// topic's (web/src/topics/<topic>/guest.e2e.ts).
import { describe, expect, it } from "vitest";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { rootfsStoredNames } from "../kernel-image/rootfs/chunks.mjs";
import { NodeVm } from "../web/src/vm/node/node-vm";
import { bootGuest } from "./guest";
import { ninePReplyBuffer } from "../web/src/vm/machine/host-files";
import { GUEST } from "../web/src/vm/machine/guest";
import { failLines } from "../web/src/vm/machine/agent";
import { parseLab } from "../web/src/labs/lab-format";
import { commandsOf } from "../web/src/labs/checks";
import { VIEW_IDS } from "../web/src/topics";

// the file's guest (e2e/guest.ts), booted before its tests; some tests below boot their own
const guest = bootGuest();
const { sh } = guest;

describe("a restore that skips zeroing memory the new instance has zeroed (v86-exports.ts)", () => {
  it("leaves the guest's memory byte for byte as v86's own restore does", async () => {
    const own = new NodeVm();
    const ours = new NodeVm();
    try {
      await own.boot({ noStart: true, v86ZeroesMemory: true });
      await ours.boot({ noStart: true });
      const a = own.memory();
      const b = ours.memory();
      expect(b.length).toBe(a.length);
      let differ = 0;
      for (let i = 0; i < a.length; i += 4096) if (Buffer.compare(a.subarray(i, i + 4096), b.subarray(i, i + 4096)) !== 0) differ++;
      expect(differ).toBe(0);
      // not a vacuous comparison: the restored kernel is there in both
      expect(Buffer.from(b.buffer, b.byteOffset, b.length).includes("Linux version 7.2.")).toBe(true);

      // a machine that has run: its memory is no longer zero, and a restore into it must clear it
      const ran = new NodeVm();
      try {
        await ran.boot();
        await ran.run("head -c 20000000 /dev/urandom > /tmp/noise; echo fslab-dirty-$((6 * 7)) > /tmp/mark");
        const emulator = (ran as unknown as { emulator: { stop(): Promise<void>; restore_state(s: ArrayBuffer): Promise<void> } }).emulator;
        await emulator.stop();
        const raw = execFileSync("xz", ["-d", "-c", "kernel-image/dist/state.bin.xz"], { maxBuffer: 2 ** 30 });
        await emulator.restore_state(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
        const c = ran.memory();
        differ = 0;
        for (let i = 0; i < a.length; i += 4096) if (Buffer.compare(a.subarray(i, i + 4096), c.subarray(i, i + 4096)) !== 0) differ++;
        expect(differ).toBe(0);
      } finally {
        await ran.destroy();
      }
    } finally {
      await own.destroy();
      await ours.destroy();
    }
  });
});

describe("a machine saved while the guest downloads a file of its root (host-files.ts)", () => {
  it("restores to a guest that gets the file: the save waited for the download", async () => {
    const a = new NodeVm();
    const b = new NodeVm();
    try {
      await a.boot();
      // fio's file: never read by the saved machine, so its bytes come from the host now
      a.type("md5sum /usr/bin/fio > /tmp/sum\n");
      const t0 = performance.now();
      while (a.hostFilesPending === 0) {
        if (performance.now() - t0 > 10_000) throw new Error("the guest never downloaded /usr/bin/fio");
        await new Promise((r) => setImmediate(r));
      }
      const state = await a.saveState();
      await b.boot();
      await b.restoreState(state);
      // the restored md5sum finishes, then this runs: a request lost in the save would hang it
      const r = await b.run("cat /tmp/sum; md5sum /usr/bin/fio", 30_000);
      const [saved, now] = r.output.trim().split("\n");
      expect(saved).toMatch(/^[0-9a-f]{32}  \/usr\/bin\/fio$/);
      expect(saved).toBe(now);
    } finally {
      await a.destroy();
      await b.destroy();
    }
  });

  it("saves the 9p device's last answer as zeros, not stale file bytes, and the guest reads on", async () => {
    const before = await sh("md5sum /usr/bin/fio");
    const reply = ninePReplyBuffer((guest.vm as unknown as { emulator: unknown }).emulator);
    expect(reply?.length).toBe(2 * 131096); // twice the 9p mount's msize
    expect(reply!.some((b) => b !== 0)).toBe(true);
    await guest.vm.saveState();
    expect(reply!.some((b) => b !== 0)).toBe(false);
    // read again through 9p, not the page cache
    expect(await sh("echo 3 > /proc/sys/vm/drop_caches; md5sum /usr/bin/fio")).toBe(before);
  });
});

describe("the guest", () => {
  it("restored the saved state and runs Linux 7.2 with our switches", async () => {
    expect(guest.vm.restored).toBe(true);
    expect(await sh("uname -r")).toMatch(/^7\.2\.\d+/);
    expect(await sh("cat /sys/module/exfat/parameters/batch_discard /sys/module/exfat/parameters/empty_hint")).toBe("Y\nY\n");
  });

  it("the saved shell's prompt is the one a page shows for it without asking (GUEST.savedPrompt)", async () => {
    // asked for a fresh prompt (NodeVm sends a newline), the shell prints the same prompt in
    // the same directory as when it was saved
    const raw = new NodeVm();
    try {
      await raw.boot({ raw: true });
      expect(raw.restored).toBe(true);
      expect(raw.output.endsWith(GUEST.savedPrompt)).toBe(true);
      expect(raw.output.replace(GUEST.savedPrompt, "")).not.toMatch(/fslab:/);
    } finally {
      await raw.destroy();
    }
  });

  it("stops its tick at rest on the local APIC, and runs irq_work from the tick, never a self-IPI (patch 0008)", async () => {
    // the clock event device is the APIC's one-shot timer; the periodic tick (HZ=100) would
    // count about 200 timer interrupts in 2 s of sleep, NO_HZ_IDLE a handful
    const count = (name: string) => `awk '$1 == "${name}:" { print $2 }' /proc/interrupts`;
    const [before, after] = (await sh(`${count("LOC")}; sleep 2; ${count("LOC")}`)).trim().split("\n").map(Number);
    expect(after - before).toBeGreaterThanOrEqual(1);
    expect(after - before).toBeLessThan(60);
    expect(await sh("cat /sys/devices/system/clockevents/clockevent0/current_device")).toBe("lapic\n");
    // a traced command queues irq_work (the ring buffer wakes its reader through it); in v86 its
    // self-IPI left the vector in service for ever and hung the guest: none may be sent
    const iwi = await sh(`fslab-trace start block/block_rq_issue > /dev/null; dd if=/dev/zero of=/tmp/iwi bs=4k count=16 oflag=direct 2> /dev/null; fslab-trace stop > /dev/null; rm /tmp/iwi; ${count("IWI")}`);
    expect(iwi).toBe("0\n");
  });

  it("reports a command's exit status", async () => {
    expect(await guest.vm.run("exit 7")).toEqual({ output: "", status: 7 });
  });

  it("reads its large root files exact from their 128 KiB pieces, through the page cache and around it", async () => {
    // rootfs.json names each file by the sha256 of its bytes: the guest's sum must be that name
    const tree = JSON.parse(readFileSync(new URL("../kernel-image/dist/rootfs.json", import.meta.url), "utf8"));
    const entry = (path: string) => path.split("/").reduce((dir: unknown[][], part, i, all) => {
      const e = dir.find((x) => x[0] === part)!;
      return (i === all.length - 1 ? e : e[6]) as unknown[][];
    }, tree.fsroot) as unknown as [string, number, number, number, number, number, string];
    const files = ["usr/bin/bash", "usr/bin/fio", "usr/sbin/mkfs.f2fs", "usr/lib/i386-linux-gnu/libc.so.6"];
    for (const f of files) expect(rootfsStoredNames(entry(f)[6], entry(f)[1]).length, f).toBeGreaterThan(1);
    const sums = await sh(files.map((f) => `sha256sum < /${f}`).join("; "));
    expect(sums.split("\n").filter(Boolean).map((l) => l.slice(0, 64))).toEqual(files.map((f) => entry(f)[6].slice(0, 64)));
    // O_DIRECT reads skip the page cache: 7777-byte reads straddle the pieces' boundaries
    const direct = await sh("set -o pipefail; dd if=/usr/sbin/mkfs.f2fs iflag=direct bs=7777 2>/dev/null | sha256sum");
    expect(direct.slice(0, 64)).toBe(entry("usr/sbin/mkfs.f2fs")[6].slice(0, 64));
  });
});

describe("a memory hog in the guest", () => {
  // The root's files are page cache over 9p. Once a hog has pushed them out, the fault that
  // reads one back allocates in the 9p client with GFP_NOFS, which never invokes the OOM
  // killer: with the classic LRU that fault retried reclaim for minutes, about one try in
  // two. The multi-gen LRU's min_ttl_ms (set by /init) has kswapd kill the hog instead.
  it("meets the OOM killer within seconds, every time, and the shell goes on", async () => {
    expect(await sh("cat /sys/kernel/mm/lru_gen/min_ttl_ms")).toBe("1000\n");
    const state = await guest.vm.saveState();
    for (let i = 0; i < 4; i++) {
      try {
        const r = await guest.vm.run("tail /dev/zero; echo status $?", 45_000, true);
        expect(r.output).toMatch(/Killed\s+status 137/);
        expect(await sh("dmesg | grep -c 'Out of memory: Killed process [0-9]* (tail)'")).toBe("1\n");
      } finally {
        await guest.vm.restoreState(state); // each try, and the tests after, from the same machine
      }
    }
  });
});

describe("the saved state's plain bytes, kept in the user's cache", () => {
  it("are written by the first restore and read by the next; a cut file is un-xz'd and written again; old states go", () => {
    const cache = mkdtempSync(join(tmpdir(), "fslab-cache-"));
    const dir = join(cache, "fslab");
    const rawBytes: number = JSON.parse(readFileSync("kernel-image/dist/manifest.json", "utf8")).state.raw_bytes;
    // three states of other builds, a day, two and three old
    mkdirSync(dir);
    for (const [name, days] of [["state-aaaa.bin", 1], ["state-bbbb.bin", 2], ["state-cccc.bin", 3]] as const) {
      writeFileSync(join(dir, name), "x");
      utimesSync(join(dir, name), new Date(Date.now() - days * 86_400_000), new Date(Date.now() - days * 86_400_000));
    }
    const ours = () => readdirSync(dir).filter((f) => !/^state-(aaaa|bbbb|cccc)\.bin$/.test(f));
    const vm = () => spawnSync("node", ["bin/fslab.mjs", "vm", "--", "echo answered"], { encoding: "utf8", timeout: 110_000, env: { ...process.env, XDG_CACHE_HOME: cache } });
    try {
      expect(vm().stdout).toBe("answered\n");
      expect(ours().map((f) => statSync(join(dir, f)).size)).toEqual([rawBytes]); // one whole file, no temporary one left
      expect(readdirSync(dir).sort()).toEqual([...ours(), "state-aaaa.bin", "state-bbbb.bin"].sort()); // the newest three kept
      // the next restore reads the file: it is not written again
      const [first] = ours();
      const before = statSync(join(dir, first));
      utimesSync(join(dir, first), new Date(0), new Date(0));
      expect(vm().stdout).toBe("answered\n");
      expect(statSync(join(dir, first)).mtimeMs).toBe(0);
      expect(statSync(join(dir, first)).ino).toBe(before.ino);
      const [file] = ours();
      truncateSync(join(dir, file), rawBytes >> 1);
      expect(vm().stdout).toBe("answered\n");
      expect(ours().map((f) => statSync(join(dir, f)).size)).toEqual([rawBytes]);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  }, 240_000);
});

describe("a guest that stops: a panic, a reboot, a halt", () => {
  it("`fslab vm` says so at once in the kernel's words, after what the command printed", () => {
    for (const [command, what, line] of [
      ["echo before; reboot -f", "the guest's kernel restarted the machine", "reboot: Restarting system"],
      ["echo before; sync; poweroff -f", "the guest was shut down", "reboot: Power off not available: System halted instead"],
    ]) {
      // the default timeout is 600 s: a stop not seen would fail the test at its own limit
      const r = spawnSync("node", ["bin/fslab.mjs", "vm", "--", command], { encoding: "utf8", timeout: 110_000 });
      expect(r.status).toBe(1);
      expect(r.stdout).toMatch(new RegExp(`^before\\n\\[ *\\d+\\.\\d+\\] ${line}\\n$`));
      expect(r.stderr.trim()).toBe(`fslab vm: ${what} (${line}): nothing more runs in it`);
    }
  }, 240_000);

  it("`fslab labs test` fails the lab whose block stops the machine, at its line, and tests the next", () => {
    const dir = mkdtempSync(join(tmpdir(), "fslab-labs-"));
    const lab = (id: string, block: string) => {
      mkdirSync(join(dir, id));
      writeFileSync(join(dir, id, "lab.md"), `---\nid: ${id}\ntitle: "${id}"\nsummary: a lab\ntime: 1 min\ntopics: [x]\n---\n\n## One step\n\n\`\`\`vm\n${block}\n\`\`\`\n\n\`\`\`check\ntest -e /tmp/made\n\`\`\`\n`);
    };
    lab("a-reboots", "touch /tmp/made; reboot");
    lab("b-works", "touch /tmp/made");
    try {
      const r = spawnSync("node", ["bin/fslab.mjs", "labs", "test", dir], { encoding: "utf8", timeout: 110_000 });
      expect(r.stderr).toContain(`FAIL ${relative(process.cwd(), join(dir, "a-reboots", "lab.md"))}:11: step 1 "One step": its vm block stopped the machine: the guest's kernel restarted the machine (reboot: Restarting system): nothing more runs in it`);
      expect(r.stdout).toMatch(/^ok {2}.*b-works\/lab\.md: 1 steps in/m);
      expect(r.stdout).toMatch(/1 of 2 labs pass their checks/);
      expect(r.status).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it("a check in flight is told why, and a restored machine runs again", async () => {
    const state = await guest.vm.saveState();
    try {
      await guest.vm.agent.ready(); // so the check is sent before the panic, not after its own question
      const check = guest.vm.agent.run("sleep 30", 60);
      const run = guest.vm.run("echo c > /proc/sysrq-trigger");
      await expect(run).rejects.toThrow("the guest's kernel panicked (Kernel panic - not syncing: sysrq triggered crash): nothing more runs in it");
      await expect(check).rejects.toThrow("the machine stopped (Kernel panic - not syncing: sysrq triggered crash)");
      // and a check asked now is refused at once with the same words, not after its time
      const t0 = performance.now();
      await expect(guest.vm.agent.run("true", 30)).rejects.toThrow("the machine stopped (Kernel panic - not syncing: sysrq triggered crash)");
      expect(performance.now() - t0).toBeLessThan(4000); // a ping unanswered would take 5 s, the check 40
      expect(guest.vm.stopped?.kind).toBe("panic");
    } finally {
      await guest.vm.restoreState(state);
    }
    expect(guest.vm.stopped).toBeNull();
    expect(await sh("echo back")).toBe("back\n");
    expect((await guest.vm.agent.run("echo agent", 30)).output).toBe("agent\n");
  });
});

describe("the check agent on /dev/hvc2", () => {
  it("runs a script out of the shell's sight: status, output with FAIL: lines, UTF-8", async () => {
    expect(await guest.vm.agent.ready()).toBe(2);
    const r = await guest.vm.agent.run("echo ok; echo 'FAIL: /mnt/x/frag does not exist yet' >&2; echo 日本; exit 3");
    expect(r.status).toBe(3);
    expect(r.output).toBe("ok\nFAIL: /mnt/x/frag does not exist yet\n日本\n");
    expect(failLines(r.output)).toEqual(["/mnt/x/frag does not exist yet"]);
  });

  it("never changes the learner's directory or variables, and kills a check at its time limit", async () => {
    guest.vm.type("cd /tmp && export LEARNER=1\n"); // in the shell itself, not run()'s child bash
    expect((await guest.vm.agent.run("cd /etc; export LEARNER=2; pwd; echo ${LEARNER}")).output).toBe("/etc\n2\n");
    expect(await sh("pwd; echo $LEARNER")).toBe("/tmp\n1\n");
    // the check's child too: it ran in its own process group, and all of it was killed
    const slow = await guest.vm.agent.run("sleep 30 & echo started; sleep 30", 1);
    expect(slow.status).toBe("timeout");
    expect(slow.output).toBe("started\n");
    expect(await sh("ps -o args | grep -c '^sleep' || true")).toBe("0\n"); // nor the agent's own timer
    expect((await guest.vm.agent.run("true")).status).toBe(0);
  });
});

describe("a lab's check beside the learner's own commands", () => {
  // The page checks a step every few seconds while the shell waits at its prompt, so a check
  // can be running as the learner's next command starts. vfat-codepages' checks once mounted
  // /dev/loop7 read-only themselves: a mount of the learner's made meanwhile shared that
  // superblock and came up read-only, with the check's options, not their codepage (a walk of
  // the lab in CI, 2026-11-28: "mkdir: can't create directory '/mnt/v/u932': Read-only file system").
  it("vfat-codepages: step 2's check, run again and again during the learner's loop, leaves each of its mounts read-write with its own options", async () => {
    const lab = parseLab(readFileSync("labs/vfat-codepages/lab.md", "utf8"), VIEW_IDS, "labs/vfat-codepages/lab.md", "vfat-codepages");
    const [setup, names] = lab.steps;
    const check = names.blocks.find((b) => b.kind === "check")!.text;
    try {
      for (const b of commandsOf(setup)) expect((await guest.vm.run(b.text)).status).toBe(0);
      // the loop, with each mount's options printed while it is mounted
      const loop = commandsOf(names)[0].text.replace("mkdir -p /mnt/v/$2", "grep ' /mnt/v ' /proc/mounts && mkdir -p /mnt/v/$2");
      expect(loop).not.toBe(commandsOf(names)[0].text);
      let done = false;
      const learner = guest.vm.run(loop).finally(() => (done = true));
      let checks = 0;
      while (!done) {
        await guest.vm.agent.run(check, 20);
        checks++;
      }
      const out = (await learner).output;
      expect(checks).toBeGreaterThan(1);
      expect(out).not.toMatch(/write-protected|Read-only/);
      for (const cp of ["codepage=932", "codepage=437"]) expect(out).toMatch(new RegExp(`^/dev/loop7 /mnt/v vfat rw,.*${cp}`, "m"));
      // the check passes on what the loop made, and leaves nothing of its own behind
      expect((await guest.vm.agent.run(check, 20)).status).toBe(0);
      expect(await sh("losetup -a | grep -v '^/dev/loop7:' | wc -l; grep -c ' vfat ' /proc/mounts || true")).toBe("0\n0\n");
    } finally {
      await guest.vm.run("umount /mnt/v /mnt/m 2>/dev/null; losetup -d /dev/loop7; rm -f /tmp/v.img");
    }
  });
});

describe("real disks reach the host", () => {
  it("an exFAT image made in the guest arrives byte-exact through /mnt/host and passes the host's fsck.exfat", async () => {
    await sh(`set -e; rm -f /tmp/share.img; truncate -s 8M /tmp/share.img; dev=$(losetup -f --show /tmp/share.img)
      mkfs.exfat -L FSLAB $dev >/dev/null; mkdir -p /mnt/s; mount $dev /mnt/s; echo hello > /mnt/s/hello.txt
      umount /mnt/s; losetup -d $dev; cp /tmp/share.img /mnt/host/share.img; sync`);
    const bytes = await guest.vm.readSharedFile("share.img");
    expect(bytes.length).toBe(8 * 2 ** 20);
    expect(new TextDecoder().decode(bytes.subarray(3, 11))).toBe("EXFAT   ");
    expect([bytes[510], bytes[511]]).toEqual([0x55, 0xaa]);
    const sum = (await sh("sha256sum /tmp/share.img")).split(" ")[0];
    const { createHash } = await import("node:crypto");
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(sum);
    const { mkdtempSync, writeFileSync } = await import("node:fs");
    const { execFileSync } = await import("node:child_process");
    const file = `${mkdtempSync("/tmp/fslab-share-")}/share.img`;
    writeFileSync(file, bytes);
    expect(execFileSync("fsck.exfat", ["-n", file], { encoding: "utf8" })).toMatch(/clean|files/);
  });
});
