// The exfat topic's lab views (declared in topic.ts): what a lab page shows beside the VM.
import { labDirScenario } from "./exfat-dir";
import type { LabViewProps } from "../../shared/topic";
import { ExfatView } from "./ExfatView";
import { KernelDiscards, discardsOfLines } from "./KernelDiscards";
import { DirectoryView } from "./DirectoryView";
import { KernelEmptySearch } from "./KernelEmptySearch";
import { DiskPanel, DiskView } from "./DiskView";
import { useMemo } from "react";
import { useGuestImage } from "../../shared/inspect/useGuestImage";
import type { ExfatReport } from "./inspect-report";

/** the model's delete on the cluster grid, beside the kernel's discards as they stream in, and the learner's volume on disk */
export function ExfatClustersLab({ live, vm, params, onVerdict, answersHeld }: LabViewProps) {
  // one image for both: the disk panel draws it, and the discards' verdict sets the newest delete against it
  const img = useGuestImage<ExfatReport>(vm, CLUSTERS_IMAGE, "exfat");
  // the lines, not the records: they name the task that freed the clusters, and a reset's rewind
  const discards = useMemo(() => discardsOfLines(live.lines), [live.lines, live.version]);
  // a prediction of a delete's cost read off this very image (exfat-discard's rewritten /frag):
  // its runs, in the disk panel and beside the deletes, wait until the prediction is made
  const held = answersHeld?.find((k) => k.model === "exfat.file-discards" && k.params.image === CLUSTERS_IMAGE);
  return (
    <div className="view-pair">
      <ExfatView start={params?.clusters !== undefined ? { clusters: Number(params.clusters), runs: Number(params.runs ?? 1), batch: Number(params.batch ?? 1) } : undefined} />
      <KernelDiscards discards={discards} stats={live.stats} onVerdict={onVerdict} disk={{ report: held ? null : img.report, file: CLUSTERS_IMAGE }} />
      <DiskPanel img={img} ready={!!vm} file={CLUSTERS_IMAGE} held={held ? `step ${held.step}: how many discard requests deleting ${held.params.path} will cost; work it out from how the allocator placed it` : undefined} />
    </div>
  );
}

/** the image exfat-discard copies to /mnt/host before its second delete */
const CLUSTERS_IMAGE = "exfat.img";

/** the directory model, the kernel's empty-entry searches against it, and the volume the kernel wrote */
export function ExfatDirLab({ live, vm, onVerdict, seed, answersHeld }: LabViewProps) {
  return (
    <div className="view-pair">
      <DirectoryView held={answersHeld} />
      <KernelEmptySearch events={live.events} stats={live.stats} onVerdict={onVerdict} scenario={labDirScenario(seed)} />
      <DiskView vm={vm} file="dir.img" dir="/dir" />
    </div>
  );
}
