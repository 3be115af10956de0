// One tab at a time runs a lab. Two tabs on one lab each ran a machine, and each kept its own as
// the learner's newest when it was hidden, so switching tabs put one tab's machine over the
// other's (and a reload brought back whichever was hidden last). Now a tab holds the lab with a
// Web Lock (`fslab-lab:<id>`, per origin, let go when the tab closes or crashes), and a second
// tab shows a notice instead of the lab, and takes it once the first is closed. "Use the lab
// here" asks the holder over a BroadcastChannel: it keeps its machine (as a tab hidden mid-step
// does: machine-keeper.ts keepLeft), then lets go, and the asking tab, whose lock request was
// queued, starts from that machine. A holder that
// does not let go (a command still running there, a frozen tab) can be overruled: its lock is
// stolen and it stops at once, without keeping what it did since its last kept machine.
// No React here (OneTab.tsx draws it).

/** where the tabs of an origin ask each other (one channel for every lab) */
const CHANNEL = "fslab-lab-tabs";

interface Want {
  fslab: "want-lab";
  lab: string;
}

const lockName = (lab: string) => `fslab-lab:${lab}`;

/** How long a lab held elsewhere may be the page this one reloads, letting go as it unloads. */
const LET_GO_AT_RELOAD_MS = 1500;

/**
 * What a tab that holds a lab does before it lets go: keep its machine (useStepMachine registers
 * it while a machine runs). Resolves once the machine is stored: true, or false when it was not
 * kept (a machine in trouble).
 */
const beforeLettingGo = new Map<string, () => Promise<boolean>>();

/** Register what to do before the lab `lab` goes to another tab; returns the unregister. */
export function onLettingGo(lab: string, keep: () => Promise<boolean>): () => void {
  beforeLettingGo.set(lab, keep);
  return () => {
    if (beforeLettingGo.get(lab) === keep) beforeLettingGo.delete(lab);
  };
}

/** How this tab stands with the lab. */
export type TabHold =
  /** asking the browser */
  | { kind: "checking" }
  /** this tab runs the lab */
  | { kind: "here" }
  /** another tab runs it; `asked`: this tab asked it to let go, and waits */
  | { kind: "elsewhere"; asked: boolean }
  /** another tab took the lab from this one; `kept`: this tab's machine was kept first */
  | { kind: "gone"; kept: boolean };

export interface LabHold {
  /** ask the tab that holds the lab to keep its machine and let go; this tab gets it after */
  ask(): void;
  /** take the lab now: the holding tab stops without keeping its machine */
  take(): void;
  /** let go (the page left the lab) */
  release(): void;
}

/**
 * Hold the lab `lab` for this tab, or wait behind the tab that does. `onChange` hears each change of
 * hold; `onGranted(waited)` runs as this tab gets the lab, `waited` when it had to wait for
 * another tab (what the page looked up ahead may then be older than what that tab kept). Where
 * the browser has no Web Locks (an insecure context, an old browser) every tab holds its labs,
 * as before.
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

  /**
   * Ask for the lock: `how` "try" takes it only if it is free, "queue" waits behind the holder,
   * "steal" takes it from the holder. A hold that ends in an AbortError without this tab letting
   * go was stolen by another tab.
   */
  const request = (how: "try" | "queue" | "steal") => {
    if (!locks || ended) return;
    queued?.abort();
    queued = how === "queue" ? new AbortController() : null;
    const opts: LockOptions = how === "try" ? { ifAvailable: true } : how === "steal" ? { steal: true } : { signal: queued!.signal };
    let held = false;
    locks
      .request(lockName(lab), opts, (lock) => {
        if (!lock) return void waitBehind();
        if (ended) return; // the page left meanwhile: let it go at once
        held = true;
        queued = null;
        clearTimeout(notFree);
        onGranted(how !== "try");
        onChange({ kind: "here" });
        return new Promise<void>((resolve) => (letGo = resolve));
      })
      .catch(() => {
        // not granted (aborted while queued): nothing changed. Held: stolen
        if (!held || ended) return;
        letGo = null;
        onChange({ kind: "gone", kept: false });
      });
  };
  /**
   * Held elsewhere: queued behind the holder, so this tab takes the lab once that tab is closed.
   * Said only after a moment: at a reload, the page being left may not have let go yet.
   */
  let notFree: ReturnType<typeof setTimeout> | undefined;
  const waitBehind = () => {
    request("queue");
    notFree = setTimeout(() => !ended && !letGo && onChange({ kind: "elsewhere", asked: false }), LET_GO_AT_RELOAD_MS);
  };

  if (locks) {
    onChange({ kind: "checking" });
    request("try");
  } else {
    onGranted(false);
    onChange({ kind: "here" });
  }

  // another tab wants this lab: keep the machine, then let go
  if (channel)
    channel.onmessage = (e: MessageEvent) => {
      const m = e.data as Partial<Want> | null;
      if (!m || m.fslab !== "want-lab" || m.lab !== lab || !letGo || handingOver) return;
      handingOver = true;
      // no machine running (an embed not started, a page still loading): nothing to keep
      const keep = beforeLettingGo.get(lab) ?? (() => Promise.resolve(true));
      void keep()
        .catch(() => false)
        .then((kept) => {
          handingOver = false;
          const go = letGo;
          if (!go || ended) return; // stolen meanwhile, or the page left
          letGo = null;
          go();
          onChange({ kind: "gone", kept });
        });
    };

  return {
    ask() {
      if (ended || letGo) return;
      clearTimeout(notFree);
      onChange({ kind: "elsewhere", asked: true });
      request("queue");
      channel?.postMessage({ fslab: "want-lab", lab } satisfies Want);
    },
    take() {
      if (!ended && !letGo) request("steal");
    },
    release() {
      ended = true;
      clearTimeout(notFree);
      queued?.abort();
      queued = null;
      letGo?.();
      letGo = null;
      channel?.close();
    },
  };
}
