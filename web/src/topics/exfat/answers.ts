// The exfat model's answers for a learner's problem (shared/answers.ts): the labs' workloads
// replayed on the core (wasm/src/exfat), so each learner's key is the model's, not a constant.
import type { TopicAnswers } from "../../shared/answers";
import { diskReport, intParam } from "../../shared/answers";
import type { ExfatReport } from "./inspect-report";
import { DiscardPolicy } from "./events";
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
     * A file on the learner's own volume (its image, copied to /mnt/host), deleted under one
     * policy: the discard requests __exfat_free_cluster() sends for the chain the inspector reads
     * there. One per cluster up to 6.14 (exfat_clear_bitmap() discarded each); one per run of
     * consecutive clusters since 6.15, which is how the inspector lists a chain.
     */
    "file-discards"(_m, p, disk) {
      const path = p.path;
      if (typeof path !== "string" || !path.startsWith("/")) throw new Error(`path is ${JSON.stringify(path)}: a file's path on the volume, from its root (/frag)`);
      const batched = intParam(p, "batch_discard", 0, 1);
      const file = diskReport<ExfatReport>(disk, "exfat", "exFAT").files.find((f) => f.path === path && !f.dir);
      if (!file) throw new Error(`${disk!.name} has no file ${path} (was the image copied after it was written, and before it was deleted?)`);
      if (file.chain_error) throw new Error(`${path}'s chain on ${disk!.name} is broken (${file.chain_error})`);
      return batched ? file.runs.length : file.runs.reduce((a, [, n]) => a + n, 0);
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
