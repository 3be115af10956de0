// The ext4 topic's lab view (declared in topic.ts).
import type { LabViewProps } from "../../shared/topic";
import { Ext4DirectView } from "./Ext4DirectView";

/** the guest's direct-write measurements beside the ext4 model's, cell by cell */
export function Ext4DirectLab({ vm }: LabViewProps) {
  return <Ext4DirectView vm={vm} />;
}
