// The lab page in one tab at a time (one-tab.ts): the page itself where this tab holds the lab,
// else a notice with the way to bring the lab here.
import { useEffect, useRef, useState, type ReactNode } from "react";
import { holdLab, type LabHold, type LetGo, type TabHold } from "./one-tab";
import { forgetMachineAhead } from "../pages/find-machine";

/** what became of this tab's machine as the lab moved */
const GONE: Record<LetGo, string> = {
  kept: "Your machine here was kept first, and the other tab goes on from it.",
  none: "No machine was running here: the other tab goes on from the machine kept last.",
  failed: "Your machine here could not be kept (it was in trouble, or the browser would not store it): the other tab goes on from the machine kept before it.",
  taken: "The other tab took the lab before this one could keep its machine: it goes on from the machine kept last, without what was done here since.",
};

/** How long a tab waits for the holder to keep its machine before it offers to take the lab anyway. */
const PATIENCE_MS = 8000;

export function OneTab({ lab, children }: { lab: string; children: ReactNode }) {
  const [hold, setHold] = useState<TabHold>({ kind: "checking" });
  const handle = useRef<LabHold | null>(null);
  useEffect(() => {
    const h = holdLab(lab, setHold, (waited) => {
      // the machine looked up as the route opened is older than the one the other tab kept
      if (waited) forgetMachineAhead(lab);
    });
    handle.current = h;
    return () => h.release();
  }, [lab]);
  const asked = hold.kind === "elsewhere" && hold.asked;
  // (each ask waits anew: a tab that got the lab meanwhile is asked again)
  const asks = hold.kind === "elsewhere" ? hold.asks : undefined;
  const [impatient, setImpatient] = useState(false);
  useEffect(() => {
    setImpatient(false);
    if (!asked) return;
    const t = setTimeout(() => setImpatient(true), PATIENCE_MS);
    return () => clearTimeout(t);
  }, [asked, asks]);

  if (hold.kind === "here") return <>{children}</>;
  // a moment: the browser answers at once, unless another page holds the lab
  if (hold.kind === "checking")
    return hold.long ? (
      <p className="muted" role="status">
        Looking whether this lab is open in another tab…
      </p>
    ) : null;
  const useHere = (
    <button type="button" onClick={() => handle.current?.ask()} disabled={asked} data-testid="lab-use-here">
      Use the lab here
    </button>
  );
  return (
    <section className="notice one-tab" data-testid="lab-elsewhere" data-hold={hold.kind} aria-labelledby="one-tab-title">
      <h1 id="one-tab-title">{hold.kind === "gone" ? "This lab moved to another tab" : "This lab is open in another tab"}</h1>
      {hold.kind === "gone" ? (
        <p>{GONE[hold.how]}</p>
      ) : (
        <p>
          A lab runs in one tab at a time, so that one tab&apos;s machine never replaces another&apos;s. Go back to that tab, close it (the lab
          then opens here when you come back to this tab), or use the lab here: that tab keeps its machine first, and this one starts from it.
        </p>
      )}
      <p>
        {useHere}
        {asked && <span role="status"> Waiting for the other tab to keep its machine…</span>}
      </p>
      {asked && impatient && (
        <p role="status" data-testid="lab-take-now-why">
          The other tab has not let go yet: a command may still be running there, or the browser has put that tab to sleep.{" "}
          <button type="button" onClick={() => handle.current?.take()} data-testid="lab-take-now">
            Take it now
          </button>{" "}
          (the other tab stops, and what it did since its machine was last kept is lost).
        </p>
      )}
    </section>
  );
}
