import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { BootWatcher, GUEST, machineStopped, oomLines, rootfsFiles, TroubleWatcher } from "./guest";
import { ROOTFS_CHUNK, rootfsStoredNames } from "../../../../kernel-image/rootfs/chunks.mjs";

describe("BootWatcher", () => {
  it("follows a boot from kernel to prompt, across chunk boundaries", () => {
    const w = new BootWatcher();
    expect(w.feed("[    0.000000] Linux version 7.2.13\r\n")).toBeNull();
    expect(w.feed("fslab: init do")).toBeNull();
    expect(w.feed("ne, 7.2.13\r\n")).toBe("userland");
    expect(w.feed("\x1b[?2004hfslab:~")).toBeNull();
    expect(w.feed("# ")).toBe("ready");
    expect(w.phase).toBe("ready");
  });

  it("reports a panic with the kernel's own line", () => {
    const w = new BootWatcher();
    w.feed("[    1.2] Kernel panic - not syncing: No working init found.\r\n");
    expect(w.phase).toBe("failed");
    expect(w.failure).toBe("The guest kernel panicked: Kernel panic - not syncing: No working init found.");
  });

  it("does not take a prompt-like string mid-line for the prompt", () => {
    const w = new BootWatcher();
    w.feed("echo fslab:~# and more\r\n");
    expect(w.phase).toBe("booting");
  });
});

describe("TroubleWatcher", () => {
  // what the guest's console printed for `echo c > /proc/sysrq-trigger` (kernel 7.2.13, CONFIG_MAGIC_SYSRQ)
  const panic = readFileSync(new URL("./fixtures/sysrq-panic.txt", import.meta.url), "latin1");

  it("reports a panic once its closing line is printed, with the kernel's report from the command on", () => {
    const w = new TroubleWatcher();
    const end = panic.indexOf("---[ end Kernel panic");
    // in pieces, as the console delivers it
    expect(w.feed(panic.slice(0, 200))).toBeNull();
    expect(w.feed(panic.slice(200, end + 10))).toBeNull();
    const t = w.feed(panic.slice(end + 10));
    expect(t?.kind).toBe("panic");
    expect(t?.headline).toBe("Kernel panic - not syncing: sysrq triggered crash");
    const lines = t!.text.split("\n");
    expect(lines[0]).toMatch(/^\[ +\d+\.\d+\] sysrq: Trigger a crash$/);
    expect(lines.at(-1)).toMatch(/---\[ end Kernel panic - not syncing: sysrq triggered crash \]---$/);
    expect(t!.text).toMatch(/Call Trace:\n.*dump_stack/);
    expect(t!.text).not.toMatch(/\r|fslab:~#/);
    // nothing after a panic is news, until the machine is put back
    expect(w.feed("No space left on device\r\n")).toBeNull();
    w.reset();
    expect(w.feed("dd: error writing '/tmp/fill': No space left on device\r\n")?.kind).toBe("full");
  });

  it("reports a panic whose closing line never came once the console is quiet", () => {
    const w = new TroubleWatcher();
    expect(w.feed(panic.slice(0, panic.indexOf("Call Trace")))).toBeNull();
    expect(w.settle()?.headline).toBe("Kernel panic - not syncing: sysrq triggered crash");
    expect(w.settle()).toBeNull();
  });

  it("reports an oops at its end, and a full filesystem at once, in the shell's own line", () => {
    const w = new TroubleWatcher();
    expect(w.feed("fslab:~# cat /proc/x\r\n[   12.1] BUG: kernel NULL pointer dereference, address: 00000000\r\n[   12.2] Oops: 0000 [#1] PREEMPT\r\n")).toBeNull();
    const t = w.feed("[   12.3] ---[ end trace 0000000000000000 ]---\r\n");
    expect(t).toMatchObject({ kind: "oops", headline: "BUG: kernel NULL pointer dereference, address: 00000000" });
    expect(t!.text.split("\n")).toHaveLength(3);
    const full = w.feed("dd: error writing '/tmp/fill': No space left on device\r\n");
    expect(full).toEqual({ kind: "full", headline: "dd: error writing '/tmp/fill': No space left on device", text: "dd: error writing '/tmp/fill': No space left on device" });
  });

  // what the console printed for each (kernel 7.2.13 in v86, console log level 1)
  it.each([
    ["reboot -f", "reboot", "[    4.673002] reboot: Restarting system"],
    ["echo b > /proc/sysrq-trigger", "reboot", "[    4.665040] sysrq: Resetting"],
    ["halt -f", "halt", "[    4.698005] reboot: System halted"],
    ["poweroff -f", "halt", "[    4.669955] reboot: Power off not available: System halted instead"],
    ["echo o > /proc/sysrq-trigger", "halt", "[    4.676743] sysrq: Power Off\r\n[    4.678033] reboot: Power down"],
  ])("reports `%s` as a %s at once, and nothing after it until the machine is put back", (command, kind, printed) => {
    const w = new TroubleWatcher();
    const last = printed.split("\r\n").at(-1)!;
    const t = w.feed(`\x1b[?2004hfslab:~# ${command}\r\n\x1b[?2004l\r\r\n${printed}\r\n`);
    expect(t).toEqual({ kind, headline: last.replace(/^\[ *[\d.]+\] /, ""), text: printed.replace(/\r\n/g, "\n") });
    expect(machineStopped(t)).toBe(true);
    expect(w.feed("[    5.0] Kernel panic - not syncing: later\r\nNo space left on device\r\n")).toBeNull();
    w.reset();
    expect(w.feed("No space left on device\r\n")?.kind).toBe("full");
  });

  it("finds the kernel's line after output that did not end its line, or after a bare prompt, not in a typed command", () => {
    const w = new TroubleWatcher();
    expect(w.feed("fslab:~# echo '[    1.000000] reboot: System halted' > /dev/null\r\n")).toBeNull();
    expect(w.feed("\x1b[?2004hfslab:~# printf '[    1.000000] Kernel panic - not syncing: x' >/dev/null\r\n")).toBeNull();
    // the CLI's framing mark, then the kernel (NodeVm.run of `reboot -f`)
    expect(w.feed("\x1eS\x1e[    5.408744] reboot: Restarting system\r\n")).toMatchObject({ kind: "reboot", headline: "reboot: Restarting system" });
    // `reboot &`: the shell's next prompt is out before busybox's sync is done
    const v = new TroubleWatcher();
    expect(v.feed("fslab:~# reboot &\r\n[1] 93\r\n\x1b[?2004hfslab:~# [    7.100000] reboot: Restarting system\r\n")).toMatchObject({ kind: "reboot" });
  });

  it("takes nothing else for trouble: a learner's text that mentions a panic mid-line, ordinary output", () => {
    const w = new TroubleWatcher();
    expect(w.feed("fslab:~# echo reboot: System halted\r\nreboot: System halted\r\n")).toBeNull();
    expect(w.feed("fslab:~# echo Kernel panic - not syncing: not really\r\nKernel panic - not syncing: not really\r\nBUG: none\r\n")).toBeNull();
    expect(w.settle()).toBeNull();
  });
});

describe("an out-of-memory kill", () => {
  // the guest's dmesg after `tail /dev/zero` (256 MiB, no swap): the oom-kill lines end it
  const dmesg = readFileSync(new URL("./fixtures/oom-dmesg.txt", import.meta.url), "utf8");

  it("bash's 'Killed' marks a job killed, so the host asks the kernel log", () => {
    const w = new TroubleWatcher();
    expect(w.feed("fslab:~# tail /dev/zero\r\n\x1b[?2004l\rKill")).toBeNull();
    expect(w.killed).toBe(false);
    expect(w.feed("ed\r\n")).toBeNull();
    expect(w.killed).toBe(true);
    const v = new TroubleWatcher();
    v.feed("bash: line 1:   120 Killed                  tail /dev/zero\r\n");
    expect(v.killed).toBe(true);
    const u = new TroubleWatcher();
    u.feed("Killed by a test\r\n");
    expect(u.killed).toBe(true); // "Killed by..." at a line's start is bash's form too: the kernel log decides
    const none = new TroubleWatcher();
    none.feed("the process was not Killed\r\nKilledAlready\r\n");
    expect(none.killed).toBe(false);
  });

  it("the kernel log's oom lines, newest last", () => {
    const lines = oomLines(dmesg);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/\] oom-kill:constraint=CONSTRAINT_NONE,.*task=tail,pid=\d+,uid=0$/);
    expect(lines[1]).toMatch(/\] Out of memory: Killed process \d+ \(tail\) total-vm:\d+kB/);
    expect(oomLines("[    1.0] loop0: detected capacity change\n")).toEqual([]);
  });
});

describe("the root filesystem (kernel-image/dist/rootfs.json)", () => {
  const tree = JSON.parse(readFileSync(new URL("../../../../kernel-image/dist/rootfs.json", import.meta.url), "utf8"));
  const find = (path: string): unknown[] => {
    let entries = tree.fsroot as unknown[][];
    let e: unknown[] | undefined;
    for (const part of path.split("/")) {
      e = entries.find((x) => x[0] === part);
      if (!e) throw new Error(`no ${path} in rootfs.json`);
      entries = e[6] as unknown[][];
    }
    return e!;
  };

  it("holds /init, bash, the labs' tools and the host share, files named by their content", () => {
    const files = rootfsFiles(tree);
    for (const p of ["init", "usr/bin/bash", "usr/bin/busybox", "usr/bin/fio", "usr/sbin/mkfs.f2fs", "usr/sbin/mkfs.exfat", "usr/local/sbin/fslab-agent"]) {
      const [, size, , mode, , , name] = find(p) as [string, number, number, number, number, number, string];
      expect((mode & 0o170000).toString(8), p).toBe("100000");
      expect(mode & 0o111, `${p} is executable`).not.toBe(0);
      expect(size, p).toBeGreaterThan(0);
      expect(files).toEqual(expect.arrayContaining(rootfsStoredNames(name, size)));
    }
    // a large file in pieces, each listed once and in order: bash is 1.2 MB
    const [, bashSize, , , , , bash] = find("usr/bin/bash") as [string, number, number, number, number, number, string];
    expect(bashSize).toBeGreaterThan(ROOTFS_CHUNK);
    expect(files).not.toContain(bash);
    expect(rootfsStoredNames(bash, bashSize)).toHaveLength(Math.ceil(bashSize / ROOTFS_CHUNK));
    expect(find("bin")[6]).toBe("usr/bin"); // merged /usr: a link
    expect((find("mnt/host")[3] as number) & 0o170000).toBe(0o040000);
    // every name a sha256: the same bytes are one file, and a changed file a new name
    expect(files.every((f) => /^[0-9a-f]{64}(-\d+)?\.zst$/.test(f))).toBe(true);
  });

  it("is the root the kernel command line mounts, with the init it runs", () => {
    expect(GUEST.cmdline).toMatch(/(^| )root=host9p( |$)/);
    expect(GUEST.cmdline).toMatch(/(^| )rootfstype=9p( |$)/);
    expect(GUEST.cmdline).toMatch(/(^| )init=\/init( |$)/);
  });

  it("lists files only once, and nothing from a tree that is not one", () => {
    const f = "a".repeat(64) + ".zst";
    const dup = { fsroot: [["a", 1, 0, 0o100644, 0, 0, f], ["d", 0, 0, 0o040755, 0, 0, [["b", 1, 0, 0o100755, 0, 0, f]]], ["l", 1, 0, 0o120777, 0, 0, "a"]] };
    expect(rootfsFiles(dup)).toEqual([f]);
    expect(rootfsFiles({})).toEqual([]);
    expect(rootfsFiles({ fsroot: [["x", 1, 0, 0o100644, 0, 0, "../../etc/passwd"]] })).toEqual([]);
    expect(rootfsFiles({ fsroot: [["x", -1, 0, 0o100644, 0, 0, f]] })).toEqual([]);
    // a large file: its pieces
    expect(rootfsFiles({ fsroot: [["x", ROOTFS_CHUNK + 1, 0, 0o100644, 0, 0, f]] })).toEqual(["a".repeat(64) + "-0.zst", "a".repeat(64) + "-1.zst"]);
  });
});
