// The exfat-discard code step's divergence, run by run: the chain's runs around the request
// where the learner's exfat_free_cluster_discard() parted from the kernel, each with the
// kernel's request for it and the learner's requests that touch its clusters. Loaded only when
// a grade diverges (the manifest's graders.specs[].moment).
import { useMemo } from "react";
import type { GradeMomentProps } from "../../shared/grade";
import { freeRun, requestsOf, type Request } from "./discard-grader";

const span = ([clu, count]: Request) => (count === 1 ? `${clu}` : `${clu}-${clu + count - 1}`);
/** a run's requests in words: a long list (one per cluster) shortened in the middle */
function requestsText(list: Request[]): string {
  const words = list.map((y) => `from ${y[0]}, count ${y[1]}`);
  if (!words.length) return "none";
  return words.length > 6 ? `${words.slice(0, 3).join("; ")}; … ${words.length - 5} more …; ${words.slice(-2).join("; ")} (${words.length} requests)` : words.join("; ");
}

const overlaps = (a: Request, b: Request) => a[0] < b[0] + b[1] && b[0] < a[0] + a[1];

export function DiscardMoment({ trace, stdout, at }: GradeMomentProps) {
  const rows = useMemo(() => {
    try {
      const { kernel } = freeRun(trace);
      const yours = requestsOf(stdout);
      // the runs before the divergent one (up to three) and the one after it
      const from = Math.max(0, at - 4);
      return kernel.slice(from, at + 1).map((run, i) => ({ k: from + i, run, mine: yours.filter((y) => overlaps(y, run)) }));
    } catch {
      return null; // the grade said what it could; the table has nothing more to add
    }
  }, [trace, stdout, at]);
  if (!rows) return null;
  return (
    <table className="files" data-testid="discard-moment" aria-label="the chain's runs, with the kernel's request and yours for each">
      <caption>The chain&apos;s runs around request {at}: the kernel sends one request per run</caption>
      <thead>
        <tr>
          <th>run</th>
          <th>clusters</th>
          <th>the kernel&apos;s request</th>
          <th>your requests touching it</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(({ k, run, mine }) => (
          <tr key={k} className={k === at - 1 ? "differs" : ""} data-run={k + 1}>
            <td>{k + 1}</td>
            <td>{span(run)}</td>
            <td>{`from ${run[0]}, count ${run[1]}`}</td>
            <td>{requestsText(mine)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
