// The exfat model's answers for a learner's problem (shared/answers.ts): the labs' workloads
// replayed on the core (wasm/src/exfat), so each learner's key is the model's, not a constant.
import type { TopicAnswers } from "../../shared/answers";
import { intParam } from "../../shared/answers";
import { DiscardPolicy } from "../../shared/events";
import { ExfatCore } from "./exfat-core";
import { ExfatLab } from "./exfat-scenario";
import { dirScenarioOps, runDirScript } from "./exfat-dir";

export const topicAnswers: TopicAnswers<"exfat"> = {
  core: "exfat",
  answers: {
    /**
     * exfat-discard's workload: a file written in `pieces` pieces of `piece_clusters` clusters
     * while a log grows by one cluster between them (two writers taking turns), then deleted
     * under one policy. The discard requests __exfat_free_cluster() sends.
     */
    "delete-discards"(m, p) {
      const pieces = intParam(p, "pieces", 1, 10_000);
      const size = intParam(p, "piece_clusters", 1, 100_000);
      const batched = intParam(p, "batch_discard", 0, 1);
      // the lab's 64 MiB volume of 4 KiB clusters: mkfs.exfat leaves 16,000-odd in its heap
      const lab = new ExfatLab(ExfatCore.create(m, 16_000, 3));
      try {
        const id = lab.createRuns(Array(pieces).fill(size));
        return lab.delete(id, batched ? DiscardPolicy.Batched : DiscardPolicy.PerCluster).discards.length;
      } finally {
        lab.core.dispose();
      }
    },
    /**
     * exfat-empty-hint's workload: f1..f<files> created in a fresh directory, every
     * <remove_every>-th removed, then <long_names> names of 4 entries. The directory entries
     * exfat_find_empty_entry()'s searches read in all (the kernel's empty_entries_examined).
     */
    "dir-examined"(m, p) {
      const files = intParam(p, "files", 1, 5000);
      const removeEvery = intParam(p, "remove_every", 0, 5000);
      const longNames = intParam(p, "long_names", 0, 5000);
      const hint = intParam(p, "empty_hint", 0, 1);
      const r = runDirScript(m, hint === 1, dirScenarioOps({ files, removeEvery, longNames }));
      try {
        return r.examined;
      } finally {
        r.dir.dispose();
      }
    },
  },
};
