// The write-path topic's lab view (declared in topic.ts).
import type { LabViewProps } from "../../shared/topic";
import { WritePathView } from "./WritePathView";

/** the function_graph traces the lab's steps record, as a call tree */
export function WritePathLab({ vm }: LabViewProps) {
  return <WritePathView vm={vm} />;
}
