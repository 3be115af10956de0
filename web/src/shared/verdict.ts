// A lab view that sets its model against the live kernel tells the lab page what it found, so
// a step's `expect: - verdict: <view>` can wait for "agree" (labs/expect.ts).
import { useEffect } from "react";
import type { Verdict } from "../labs/expect";

export function useVerdict(onVerdict: ((v: Verdict) => void) | undefined, v: Verdict): void {
  useEffect(() => onVerdict?.(v), [onVerdict, v.state, v.detail]);
}
