// The f2fs topic's lab view (declared in topic.ts).
import type { LabViewProps } from "../../shared/topic";
import { KernelNidScans, labScript, runUnder, useLabNidRuns } from "./KernelNidScans";
import { F2fsDiskNat } from "./F2fsDiskNat";

/** The f2fs-clue lab's panels: the model runs once for both (the lab's last run is under clue 4). */
export function F2fsNidLab({ live, vm, onVerdict, seed, answersHeld }: LabViewProps) {
  const runs = useLabNidRuns(labScript(seed));
  return (
    <div className="view-pair">
      <KernelNidScans events={live.events} stats={live.stats} modelRuns={runs} onVerdict={onVerdict} />
      {/* the NAT's valid NIDs are the answer to the lab's question on the NAT: held until it is answered */}
      <F2fsDiskNat vm={vm} model={runUnder(runs, 4)} held={!!answersHeld?.some((k) => k.model === "f2fs.valid-nids")} />
    </div>
  );
}
