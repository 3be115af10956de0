// The exfat model's answers for a learner's problem (shared/answers.ts): the labs' workloads
// replayed on the core (wasm/src/exfat), so each learner's key is the model's, not a constant.
import type { TopicAnswers } from "../../shared/answers";
import { intParam } from "../../shared/answers";
import { DiscardPolicy } from "../../shared/events";
import { ExfatCore } from "./exfat-core";
import { ExfatLab } from "./exfat-scenario";

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
  },
};
