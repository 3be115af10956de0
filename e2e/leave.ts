// A lab page asks before it is left while a machine is being kept (labs/useStepMachine.ts).
// The tests' and benchmarks' browsers answer "Leave", as a learner in a hurry would, so a
// reload or a navigation goes ahead. Other dialogs are dismissed, as Playwright does when no
// one listens. A test's own listener answers first (in the same turn, synchronously): the
// answer here comes a turn later and finds the dialog answered.
import type { BrowserContext, Page } from "playwright-core";

export function leaveWhenAsked(ctx: BrowserContext): void {
  const answer = (p: Page) =>
    p.on("dialog", (d) => {
      setTimeout(() => void (d.type() === "beforeunload" ? d.accept() : d.dismiss()).catch(() => undefined), 0);
    });
  ctx.pages().forEach(answer);
  ctx.on("page", answer);
}
