// The mq-deadline code step's divergence in the lab's own view: the graded run's lists at the
// decision where the learner's __dd_dispatch_request() parted from the kernel, drawn by the
// DeadlineQueues panel with their function's choice where the model's would be. Loaded only
// when a grade diverges (the manifest's graders.specs[].moment).
import { useMemo } from "react";
import type { GradeMomentProps } from "../../shared/grade";
import { DeadlineQueues } from "./DeadlineQueues";
import { ddReplayWords, ddVerdicts, kernelDdTimeline, traceTunables } from "./dd-kernel";
import { ddRunTrace } from "./dd-runs";
import { GUEST_HZ } from "./trace-replay";

export function DdMoment({ trace, stdout, at }: GradeMomentProps) {
  const shown = useMemo(() => {
    try {
      const t = ddRunTrace(trace.split("\n"));
      const words = ddReplayWords(t, traceTunables(t), GUEST_HZ);
      const lines = stdout.trim().split("\n");
      const out = lines.slice(1).flatMap((l) => l.trim().split(/\s+/).map(Number));
      return { timeline: kernelDdTimeline(t), replay: ddVerdicts(t, words.kernel, out) };
    } catch {
      return null; // the grade said what it could; the view has nothing more to add
    }
  }, [trace, stdout]);
  if (!shown) return null;
  return <DeadlineQueues timeline={shown.timeline} replay={shown.replay} start={Math.min(at - 1, shown.timeline.steps - 1)} decider="Your function" />;
}
