// The instant start: boot the guest cold in Node, wait for the prompt, drop the page cache
// (freed pages are zeroed by init_on_free=1), save the machine's state and compress it with xz
// into kernel-image/dist/state.bin.xz. Run by kernel-image/build.sh after the kernel and root
// filesystem; it lives here, with the Node host it boots, so that kernel-image/ imports nothing
// of web/.
import { execFileSync } from "node:child_process";
import { writeFileSync, readFileSync, renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { NodeVm } from "./node-vm";
import { GUEST, STATE_FILE } from "../machine/guest";

const dist = fileURLToPath(new URL("../../../../kernel-image/dist/", import.meta.url));
const require = createRequire(import.meta.url);
const vm = new NodeVm();
await vm.boot({ cold: true, raw: true });
vm.type("sync; echo 3 > /proc/sys/vm/drop_caches; clear\n");
await vm.waitForPrompt();
// /init maps a faulting page alone (fault_around_bytes), so the state now holds only the pages
// the programs touched; the pages a first command needs besides, as a learner's shell and the
// check agent run it (exec reads each ELF header with read(), which a drop undoes), are read
// back once here. They make the state a few hundred KB larger; without them a first check
// downloaded 2.6 MB (bash, libc and busybox, whole, as a read from a file's start fetches the
// rest beside it). The typed line below is what a learner's might be (arithmetic, a glob,
// UTF-8, a pipe, a program), typed with echo on as the page's terminal has it; `history -c`
// leaves the learner's history empty.
// The page's first requests of the agent are read back too, before the typed line (whose
// `clear` wipes the prompts bash redraws at each size change):
// - the tty's size, which VmConsole.tsx sets once the prompt stands: busybox's stty was 4 pieces
//   of busybox a first visit fetched. The size changes, so that the learner's bash handles its
//   SIGWINCH as on the page, and ends as /etc/profile sets it for a shell without a host;
// - a first step's check: grep on /proc/mounts, stat, a test (busybox's grep: 2 pieces more);
// - a page of libc's gettext (at 0x33000), which the first check after every restore read (one
//   piece of libc); what in the agent reaches it was not found. A failed `cd` reads it here.
// Together 0.46 MB a first visit no longer fetches, for 64 KB more of state.
const beforeSizes = vm.output.length;
const check = await vm.agent.run("stty -F /dev/ttyS0 cols 100 rows 30 && sleep 0.2 && stty -F /dev/ttyS0 cols 80 rows 24 && grep -q ' / ' /proc/mounts && [ \"$(stat -c %s /etc/passwd)\" -gt 0 ] && head -n 1 /etc/passwd | wc -l > /dev/null && ! cd /nonexistent 2> /dev/null");
if (check.status !== 0) throw new Error(`the check agent answered ${check.status}: ${check.output}`);
// bash redraws its prompt at each of the two size changes: both, before the typed line
const redraw = new RegExp(`\\r${GUEST.prompt.source.replace(/\$$/, "")}`, "g");
for (const until = performance.now() + 10_000; (vm.output.slice(beforeSizes).match(redraw) ?? []).length < 2; ) {
  if (performance.now() > until) throw new Error(`bash did not redraw its prompt twice at the tty's size changes: ${JSON.stringify(vm.output.slice(beforeSizes))}`);
  await new Promise((r) => setTimeout(r, 20));
}
vm.type("echo \"fslab-$((6 * 7)) é ＳＪＩＳ 日本語 ﾃｽﾄ\" * > /dev/null; ls -l / | cat > /dev/null; clear; history -c\n");
await vm.waitForPrompt();
// the page shows this as the restored machine's screen (guest.ts savedPrompt)
if (!vm.output.endsWith(GUEST.savedPrompt))
  throw new Error(`the shell's last output is ${JSON.stringify(vm.output.slice(-40))}, not the prompt the page shows (GUEST.savedPrompt)`);
const state = await vm.saveState({ v86Only: true }); // no card: the SD host starts empty
await vm.destroy();
const raw = `${dist}state.bin`;
writeFileSync(raw, new Uint8Array(state));
// LZMA2 with a dictionary that holds the whole state: 0.33 MB less than zstd --ultra -22 made
// of it. The decoder (web/src/vm/machine/saved-state.ts, xz-embedded) allocates the dictionary the
// header names, so it is the smallest LZMA2 size (2^n or 3 * 2^(n-1)) the state fits in, not
// -9's 64 MiB. (No x86 BCJ filter, which would save 0.1 MB more of the kernel's text: that
// decoder is built without it.)
const dict = lzma2DictFor(state.byteLength);
execFileSync("xz", [`--lzma2=preset=9e,dict=${dict}`, "-q", "-f", "-T1", raw]);
renameSync(`${raw}.xz`, dist + STATE_FILE);
rmSync(raw, { force: true });
const info = {
  v86: JSON.parse(readFileSync(require.resolve("v86/package.json"), "utf8")).version,
  memory_size: GUEST.memorySize,
  cmdline: GUEST.cmdline,
  // the plain state's size, which the page allocates before it un-xz's the file into it
  raw_bytes: state.byteLength,
};
writeFileSync(`${dist}state.json`, JSON.stringify(info, null, 2) + "\n");
console.log(`saved ${STATE_FILE}: ${(state.byteLength / 2 ** 20).toFixed(0)} MiB raw, booted in ${(vm.bootMs / 1000).toFixed(1)} s`);

function lzma2DictFor(bytes: number): number {
  for (let size = 2 ** 20; ; size *= 2) {
    if (size >= bytes) return size;
    if (size * 1.5 >= bytes) return size * 1.5;
  }
}
