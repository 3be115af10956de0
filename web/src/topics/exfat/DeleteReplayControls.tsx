// The controls under a replayed delete, shared by the exFAT view and /play/exfat: step, play
// and scrub through its events, and the modelled time so far against the other policy's.
import { DiscardPolicy } from "./events";
import { priceMs } from "./exfat-cost";
import type { DeleteReplay } from "./exfat-replay";
import { CostTimeline } from "./CostTimeline";
import { StepControls } from "../../shared/view/StepControls";

export const policyName = (p: DiscardPolicy) => (p === DiscardPolicy.Batched ? "Linux ≥ 6.15, batched" : "Linux ≤ 6.14, per cluster");
export const otherPolicy = (p: DiscardPolicy) => (p === DiscardPolicy.Batched ? DiscardPolicy.PerCluster : DiscardPolicy.Batched);

interface Props {
  replay: DeleteReplay;
  policy: DiscardPolicy; // the one the delete ran under
  otherDiscards: number; // the same delete's requests under the other policy
  clusters: number; // the file's
  onStep(position: number): void; // after the replay moved: redraw what shows its bitmap
}

export function DeleteReplayControls({ replay, policy, otherDiscards, clusters, onStep }: Props) {
  return (
    <>
      <StepControls
        total={replay.total}
        position={replay.position}
        unit="event"
        onChange={(k) => {
          replay.seek(k);
          onStep(k);
        }}
      />
      <CostTimeline costMs={replay.costMs} position={replay.position} otherMs={priceMs(otherDiscards, clusters)} otherLabel={policyName(otherPolicy(policy))} />
    </>
  );
}
