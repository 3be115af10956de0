// The f2fs-clue code step's divergence in the lab's own drawing: the kernel's free-NID scans and
// the replay's through the learner's scan_free_nid_bits(), up to the first that differs, as the
// lab's panel draws a run (one row per scan over the NID space), side by side. Loaded only when
// a grade diverges (the manifest's graders.specs[].moment).
import { useMemo } from "react";
import type { GradeMomentProps } from "../../shared/grade";
import { collapse, nidRunOf, replayScans } from "./grader";
import { GUEST_NAT_BLOCKS, NAT_ENTRY_PER_BLOCK } from "./nid";
import { NidScanStrip } from "./NidScanStrip";

export function NidMoment({ trace, stdout, at }: GradeMomentProps) {
  const shown = useMemo(() => {
    try {
      return { kernel: collapse(nidRunOf(trace).kernel).slice(0, at), yours: collapse(replayScans(stdout).scans).slice(0, at) };
    } catch {
      return null; // the grade said what it could; the drawing has nothing more to add
    }
  }, [trace, stdout, at]);
  if (!shown) return null;
  // one NID scale for both, as far as any of their scans reached (as the live panel scales)
  const all = [...shown.kernel, ...shown.yours].map((x) => x.scan);
  const maxNid = Math.min(GUEST_NAT_BLOCKS * NAT_ENTRY_PER_BLOCK, Math.max(NAT_ENTRY_PER_BLOCK, ...all.map((x) => Math.max(x.start, x.end, x.start + x.scanned))));
  return (
    <div className="view-pair" data-testid="nid-moment">
      <NidScanStrip scans={shown.kernel.map((s) => s.scan)} maxNid={maxNid} title={`the kernel's scans, 1 to ${shown.kernel.length}`} />
      <NidScanStrip scans={shown.yours.map((s) => s.scan)} maxNid={maxNid} title={`your function's, 1 to ${shown.yours.length}`} />
    </div>
  );
}
