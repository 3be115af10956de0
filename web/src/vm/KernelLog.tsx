// The kernel's own messages, out of the learner's shell: once the guest is up the page sets the
// console log level to 1 (only emergencies on ttyS0; e.g. loop's "operation not supported error
// ... WRITE_ZEROES" no longer lands in the middle of a command's output), and this panel shows
// `dmesg` through the check agent while it is open.
import { useEffect, useState } from "react";
import type { VmHandle } from "./VmConsole";

const POLL_MS = 3000;
const DEFER_MS = 2000;

export function KernelLog({ vm }: { vm: VmHandle | null }) {
  const [open, setOpen] = useState(false);
  const [log, setLog] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!vm) return;
    // not at once: the agent starts a bash in the guest (200-300 ms of the one emulated CPU, on
    // the page's thread), which would hold up the first command a learner types at the prompt
    const t = setTimeout(() => {
      vm.check("dmesg -n 1", 5).catch((e) => setError(`The kernel's console messages could not be moved here: ${e instanceof Error ? e.message : e}`));
    }, DEFER_MS);
    return () => clearTimeout(t);
  }, [vm]);

  useEffect(() => {
    if (!vm || !open) return;
    let live = true;
    const read = () =>
      vm.check("dmesg | tail -n 80", 5).then(
        (r) => live && (setLog(r.output), setError(null)),
        (e) => live && setError(`The kernel log could not be read: ${e instanceof Error ? e.message : e}`),
      );
    void read();
    const t = setInterval(read, POLL_MS);
    return () => {
      live = false;
      clearInterval(t);
    };
  }, [vm, open]);

  return (
    <details className="kernel-log" onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)} data-testid="kernel-log">
      <summary>Kernel log (dmesg)</summary>
      {error && <p className="error">{error}</p>}
      {!vm ? <p className="muted">Once the VM is up.</p> : <pre tabIndex={0} aria-label="the kernel's last messages">{log ?? "Reading…"}</pre>}
    </details>
  );
}
