// The blk topic's lab view (declared in topic.ts).
import type { LabViewProps } from "../../shared/topic";
import { KernelDeadlineLive } from "./KernelDeadline";
import { IoSchedCompare } from "./IoSchedCompare";

/** mq-deadline's lists followed live from the kernel's tracepoint, each decision judged by the model */
export function MqDeadlineLab({ live, onVerdict }: LabViewProps) {
  return <KernelDeadlineLive lines={live.lines} version={live.version} onVerdict={onVerdict} />;
}

/** the guest's fio runs under each scheduler, beside the block model's prediction */
export function IoSchedLab({ vm }: LabViewProps) {
  return <IoSchedCompare vm={vm} />;
}
