// What the real kernel did: the exfat_discard events fslab-trace streams from the guest,
// in the same records as the model's, so they sit beside the model's numbers.
import type { ExfatDiscard } from "../cores/events";
import { DiscardPolicy } from "../cores/events";
import type { TraceStats } from "../vm/trace-channel";

export function KernelDiscards({ discards, stats }: { discards: ExfatDiscard[]; stats: TraceStats | null }) {
  const clusters = discards.reduce((n, d) => n + d.count, 0);
  const batched = discards.filter((d) => d.policy === DiscardPolicy.Batched).length;
  return (
    <section className="kernel-discards" aria-label="Discard requests of the real kernel" data-testid="kernel-discards">
      <h2>The kernel's discards (live)</h2>
      {!stats ? (
        <p className="muted">
          Nothing yet. In the terminal, run <code>fslab-trace start exfat/exfat_discard</code>, then delete a file on the
          volume mounted with <code>-o discard</code>.
        </p>
      ) : (
        <>
          <p>
            <strong data-testid="kernel-discard-count">{discards.length}</strong> exfat_discard events covering {clusters} clusters
            ({batched} batched, {discards.length - batched} per cluster).
            {stats.lost > 0 && <span className="error"> {stats.lost} trace lines were lost on the way.</span>}
            {stats.overrun ? <span className="error"> The kernel's trace buffer dropped {stats.overrun} events.</span> : null}
          </p>
          <ol className="discard-list">
            {discards.slice(-200).map((d, i) => (
              <li key={i}>
                clu {d.start}
                {d.count > 1 ? `–${d.start + d.count - 1}` : ""} ({d.count}) {d.policy === DiscardPolicy.Batched ? "batched" : "per cluster"}
              </li>
            ))}
          </ol>
          {discards.length > 200 && <p className="muted">showing the last 200</p>}
        </>
      )}
    </section>
  );
}
