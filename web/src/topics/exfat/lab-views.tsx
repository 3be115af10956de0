// The exfat topic's lab views (declared in topic.ts): what a lab page shows beside the VM.
import { labDirScenario } from "./exfat-dir";
import type { LabViewProps } from "../../shared/topic";
import { discardsOf } from "./events";
import { ExfatView } from "./ExfatView";
import { KernelDiscards } from "./KernelDiscards";
import { DirectoryView } from "./DirectoryView";
import { KernelEmptySearch } from "./KernelEmptySearch";
import { DiskView } from "./DiskView";

/** the model's delete on the cluster grid, beside the kernel's discards as they stream in, and the learner's volume on disk */
export function ExfatClustersLab({ live, vm, params, onVerdict }: LabViewProps) {
  return (
    <div className="view-pair">
      <ExfatView start={params?.clusters !== undefined ? { clusters: Number(params.clusters), runs: Number(params.runs ?? 1), batch: Number(params.batch ?? 1) } : undefined} />
      <KernelDiscards discards={discardsOf(live.events)} stats={live.stats} onVerdict={onVerdict} />
      <DiskView vm={vm} file="exfat.img" />
    </div>
  );
}

/** the directory model, the kernel's empty-entry searches against it, and the volume the kernel wrote */
export function ExfatDirLab({ live, vm, onVerdict, seed }: LabViewProps) {
  return (
    <div className="view-pair">
      <DirectoryView />
      <KernelEmptySearch events={live.events} stats={live.stats} onVerdict={onVerdict} scenario={labDirScenario(seed)} />
      <DiskView vm={vm} file="dir.img" dir="/dir" />
    </div>
  );
}
