// The free-NID model's answers for a learner's problem (shared/answers.ts): the f2fs-clue lab's
// steps replayed on the core (wasm/src/f2fs), so each learner's key is the model's, not a constant.
import type { TopicAnswers } from "../../shared/answers";
import { diskReport, intParam } from "../../shared/answers";
import type { F2fsReport } from "./inspect-report";
import { NidScanPhase } from "./events";
import { createsScript, nidRun, oneWriterScript, type NidRun } from "./nid";
import type { F2fsModule } from "@wasm/f2fs.mjs";

/** the lab's steps with this learner's numbers: `files` creates, a sync every `sync_every`, removed, again */
function labRun(m: F2fsModule, p: Record<string, number | string>): NidRun {
  const files = intParam(p, "files", 1, 20_000);
  const every = intParam(p, "sync_every", 1, 20_000);
  const clue = intParam(p, "clue", 0, 7);
  return nidRun(m, { clue }, oneWriterScript(files, every));
}

export const topicAnswers: TopicAnswers<"f2fs"> = {
  core: "f2fs",
  answers: {
    /** NAT entries the scans read since the mount, the mount's own scan among them (the kernel's clue_nids_scanned) */
    "nids-scanned"(m, p) {
      // every scan's record, the mount's first: the kernel adds each one's count to the counter
      return labRun(m, p).scans.reduce((n, s) => n + s.scanned, 0);
    },
    /**
     * the same, the mount's own scan (the first) left out: what the run's scans read, as their
     * events since the run's step opened add up (the kernel's counter can be written by hand)
     */
    "run-nids-scanned"(m, p) {
      return labRun(m, p).scans.slice(1).reduce((n, s) => n + s.scanned, 0);
    },
    /** the valid NAT entries of the learner's own volume, as the inspector reads its metadata area */
    "valid-nids"(_m, _p, disk) {
      const { nat } = diskReport<F2fsReport>(disk, "f2fs", "F2FS");
      if (nat.unreadable_blocks) throw new Error(`${nat.unreadable_blocks} of ${disk!.name}'s NAT blocks cannot be read: copy the whole metadata area`);
      return nat.valid_nids;
    },
    /** NAT entry scans a background caller put off to the next checkpoint (the kernel's clue_nat_deferred) */
    "nat-deferred"(m, p) {
      return labRun(m, p).counters.nat_deferred;
    },
    /**
     * NAT entry scans a create ran itself, finding the free-NID list empty (a caller that needs a
     * NID now: the record's sync), over creates only on a fresh volume; not the mount's (the first)
     */
    "create-nat-scans"(m, p) {
      const files = intParam(p, "files", 1, 50_000);
      const every = intParam(p, "sync_every", 1, 50_000);
      const clue = intParam(p, "clue", 0, 7);
      const { scans } = nidRun(m, { clue }, createsScript(files, every));
      return scans.slice(1).filter((s) => s.phase === NidScanPhase.Nat && s.sync).length;
    },
  },
};
