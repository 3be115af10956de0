// The kernel's own messages, out of the learner's shell: the guest's /init sets the console log
// level to 1 (only emergencies on ttyS0; e.g. loop's "operation not supported error ...
// WRITE_ZEROES" no longer lands in the middle of a command's output), and this panel shows
// `dmesg` through the check agent while it is open.
import { useEffect, useState } from "react";
import type { VmHandle } from "../../shared/machine";

const POLL_MS = 3000;

export function KernelLog({ vm }: { vm: VmHandle | null }) {
  const [open, setOpen] = useState(false);
  const [log, setLog] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

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
