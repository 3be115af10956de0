// One tab at a time runs a lab. Two tabs on one lab each ran a machine, and each kept its own as
// the learner's newest when it was hidden, so switching tabs put one tab's machine over the
// other's (and a reload brought back whichever was hidden last). Now a tab holds the lab with a
// Web Lock (`fslab-lab:<id>`, per origin, let go when the tab closes or crashes), and a second
// tab shows a notice instead of the lab, and takes it when it is next shown or focused after the
// first was closed. "Use the lab here" asks the holder over a BroadcastChannel: it keeps its
// machine (as a tab hidden mid-step does: machine-keeper.ts keepLeft), then lets go, and the
// asking tab, whose lock request was queued, starts from that machine. A holder that
// does not let go (a command still running there, a frozen tab) can be overruled: its lock is
// stolen and it stops at once, without keeping what it did since its last kept machine.
// Of two tabs that asked at once, the one that asked last gets the lab: the first, once it has
// the lab, says so, and the other asks it again.
// No React here (OneTab.tsx draws it).

/** where the tabs of an origin ask each other (one channel for every lab) */
const CHANNEL = "fslab-lab-tabs";

/** "want-lab": a tab asks the holder to let go; "lab-moved": a tab got the lab from another */
interface Want {
  fslab: "want-lab" | "lab-moved";
  lab: string;
}

const lockName = (lab: string) => `fslab-lab:${lab}`;

/** How long a lab held elsewhere may be the page this one reloads, letting go as it unloads. */
const LET_GO_AT_RELOAD_MS = 1500;

/** How a tab that held the lab let it go: its machine kept, none running, not kept (a failure, trouble), or taken from it. */
export type LetGo = "kept" | "none" | "failed" | "taken";

/**
 * What a tab that holds a lab does before it lets go: keep its machine (useStepMachine registers
 * it while a machine runs). Resolves once the machine is stored, saying how it went.
 */
const beforeLettingGo = new Map<string, () => Promise<Exclude<LetGo, "taken">>>();

/** Register what to do before the lab `lab` goes to another tab; returns the unregister. */
export function onLettingGo(lab: string, keep: () => Promise<Exclude<LetGo, "taken">>): () => void {
  beforeLettingGo.set(lab, keep);
  return () => {
    if (beforeLettingGo.get(lab) === keep) beforeLettingGo.delete(lab);
  };
}

/**
 * How many times each lab moved from this tab to another (handed over or taken). What this tab
 * had under way as it moved (a machine's gzip, a reset's store) must not become the learner's
 * newest machine, as the other tab went on from an older one: a store compares the count as it
 * was begun with the count as it is written, so one begun before a move is dropped even after
 * the lab came back to this tab.
 */
const moves = new Map<string, number>();

/** The times the lab `lab` moved from this tab to another (0 for a page that holds no labs: an embed). */
export const labMoves = (lab: string): number => moves.get(lab) ?? 0;
const movedAway = (lab: string) => moves.set(lab, labMoves(lab) + 1);

/** How this tab stands with the lab. */
export type TabHold =
  /** asking the browser; `long`: the lab is held, maybe by the page this one reloads, which lets go as it unloads */
  | { kind: "checking"; long?: boolean }
  /** this tab runs the lab */
  | { kind: "here" }
  /** another tab runs it; `asked`: this tab asked it to let go, and waits */
  | { kind: "elsewhere"; asked: boolean; asks?: number }
  /** another tab has the lab now, which this one let go */
  | { kind: "gone"; how: LetGo };

export interface LabHold {
  /** ask the tab that holds the lab to keep its machine and let go; this tab gets it after */
  ask(): void;
  /** take the lab now: the holding tab stops without keeping its machine */
  take(): void;
  /** let go (the page left the lab) */
  release(): void;
}

/**
 * Hold the lab `lab` for this tab, or learn that another does. `onChange` hears each change of
 * hold; `onGranted(waited)` runs as this tab gets the lab, `waited` when another tab held it
 * first (what the page looked up ahead may then be older than what that tab kept). A tab told
 * the lab is elsewhere looks again when it is shown or focused (the other tab closed), but does
 * not wait in line: the holder's reload must get it back, not a tab in the background. Where
 * the browser has no Web Locks (an insecure context, an old browser) or refuses them (an opaque
 * origin), every tab holds its labs, as before.
 */
export function holdLab(lab: string, onChange: (h: TabHold) => void, onGranted: (waited: boolean) => void): LabHold {
  const locks = typeof navigator !== "undefined" ? navigator.locks : undefined;
  const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(CHANNEL) : null;
  let ended = false;
  /** ends this tab's hold of the lab (resolving the lock's callback lets the lock go) */
  let letGo: (() => void) | null = null;
  /** aborts this tab's request queued behind the holder's */
  let queued: AbortController | null = null;
  let handingOver = false;
  let settled = false; // told "here" or "elsewhere" once
  /** this tab asked the holder to let go, and is in line until it does */
  let asking = false;
  let looking = false; // (lookAgain's)
  let asks = 0; // times this tab asked a holder
  /** `handedOver`: the holder let go to this tab, in line: a tab that asked too, still in line, asks this one now */
  const here = (waited: boolean, handedOver = false) => {
    if (handedOver) channel?.postMessage({ fslab: "lab-moved", lab } satisfies Want);
    settled = true;
    asking = false;
    looking = false;
    onGranted(waited);
    onChange({ kind: "here" });
  };

  /**
   * Ask for the lock: `how` "try" takes it only if it is free, "queue" waits behind the holder,
   * "steal" takes it from the holder. A hold that ends in an AbortError without this tab letting
   * go was stolen by another tab.
   */
  const request = (how: "try" | "queue" | "steal", waited: boolean, whenHeld?: () => void) => {
    if (!locks || ended) return;
    const mine = how === "queue" ? new AbortController() : null;
    if (how !== "try") {
      queued?.abort();
      queued = mine;
    }
    let held = false;
    locks
      .request(lockName(lab), how === "try" ? { ifAvailable: true } : how === "steal" ? { steal: true } : { signal: mine!.signal }, (lock) => {
        if (!lock) return void whenHeld?.();
        if (ended) return; // the page left meanwhile: let it go at once
        held = true;
        if (queued === mine) queued = null;
        here(waited, how === "queue");
        return new Promise<void>((resolve) => (letGo = resolve));
      })
      .catch((e: unknown) => {
        if (ended) return;
        if (held) {
          letGo = null; // stolen
          movedAway(lab);
          onChange({ kind: "gone", how: "taken" });
        } else if ((e as DOMException)?.name !== "AbortError" && !settled) here(false); // locks refused: as before
      });
  };

  /**
   * In line for a moment, then out of it: a tab that lets go as it unloads (the page this one
   * reloads) takes that long to let go.
   */
  const inLineAwhile = () => {
    onChange({ kind: "checking", long: true });
    request("queue", true);
    const line = queued;
    setTimeout(() => {
      if (ended || letGo || queued !== line || asking) return;
      line?.abort();
      queued = null;
      if (settled) return;
      settled = true;
      onChange({ kind: "elsewhere", asked: false });
    }, LET_GO_AT_RELOAD_MS);
  };
  /**
   * Shown or focused while the lab is elsewhere and not asked for: free now? Tried a few times
   * over the moment a tab just closed takes to let go, never in line: a holder reloading in that
   * moment gets the lab back.
   */
  const lookAgain = () => {
    if (ended || letGo || queued || asking || looking || !settled || document.visibilityState !== "visible") return;
    looking = true;
    let left = 3; // now, then three times more within LET_GO_AT_RELOAD_MS
    const next = () => {
      if (left-- === 0 || ended || letGo || asking) return void (looking = false);
      setTimeout(() => request("try", true, next), LET_GO_AT_RELOAD_MS / 3);
    };
    request("try", true, next);
  };

  if (locks) {
    onChange({ kind: "checking" });
    request("try", false, inLineAwhile);
    document.addEventListener("visibilitychange", lookAgain);
    window.addEventListener("focus", lookAgain);
  } else here(false);

  // another tab wants this lab: keep the machine, then let go
  if (channel)
    channel.onmessage = (e: MessageEvent) => {
      const m = e.data as Partial<Want> | null;
      if (!m || m.lab !== lab) return;
      if (m.fslab === "lab-moved" && asking && !letGo && !ended) {
        // the new holder hands over as the old one did: the wait for it starts again
        onChange({ kind: "elsewhere", asked: true, asks: ++asks });
        return void channel.postMessage({ fslab: "want-lab", lab } satisfies Want);
      }
      if (m.fslab !== "want-lab" || !letGo || handingOver) return;
      handingOver = true;
      // no machine running (a page still loading): nothing to keep
      const keep = beforeLettingGo.get(lab) ?? (() => Promise.resolve("none" as const));
      void keep()
        .catch(() => "failed" as const)
        .then(async (how) => {
          // the tab that asked may have been closed meanwhile: let go only to one still in line
          const waiting = (await locks?.query())?.pending?.some((r) => r.name === lockName(lab)) ?? true;
          handingOver = false;
          const go = letGo;
          if (!go || ended || !waiting) return; // stolen meanwhile, the page left, or no one to take it
          letGo = null;
          movedAway(lab);
          go();
          onChange({ kind: "gone", how });
        });
    };

  return {
    ask() {
      if (ended || letGo || asking) return;
      asking = true;
      onChange({ kind: "elsewhere", asked: true, asks: ++asks });
      if (!queued) request("queue", true); // (a look at the lab, in line for a moment, stays in line)
      channel?.postMessage({ fslab: "want-lab", lab } satisfies Want);
    },
    take() {
      if (!ended && !letGo) request("steal", true);
    },
    release() {
      ended = true;
      queued?.abort();
      queued = null;
      letGo?.();
      letGo = null;
      channel?.close();
      if (locks) {
        document.removeEventListener("visibilitychange", lookAgain);
        window.removeEventListener("focus", lookAgain);
      }
    },
  };
}
