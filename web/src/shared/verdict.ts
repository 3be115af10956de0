// A lab view that sets its model against the live kernel tells the lab page what it found, so
// a step's `expect: - verdict: <view>` can wait for "agree" (labs/expect.ts).
import { useEffect } from "react";

/** What a lab view says of its model against the live kernel. */
export interface Verdict {
  state: "agree" | "disagree" | "waiting";
  detail: string;
}

export function useVerdict(onVerdict: ((v: Verdict) => void) | undefined, v: Verdict): void {
  useEffect(() => onVerdict?.(v), [onVerdict, v.state, v.detail]);
}
