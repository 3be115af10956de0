// The ext4 model's answers for a learner's problem (shared/answers.ts).
import type { TopicAnswers } from "../../shared/answers";
import { intParam } from "../../shared/answers";
import { LAYOUTS, ext4WriteFile, ext4WriteFolios } from "./ext4-core";

export const topicAnswers: TopicAnswers<"ext4"> = {
  core: "ext4",
  answers: {
    /**
     * ext4-lbs's challenge: <total_kib> KiB written to a new file in direct writes of
     * <write_kib> KiB on a volume of <block_kib> KiB blocks. The KiB the device receives: the
     * data, and the zeros iomap writes from each write's end to its block's end (the model's
     * zero_bytes). Writes of less than a page are not modelled: ext4 does them through the page
     * cache (fslab labs test found the kernel writing whole blocks for 2 KiB writes).
     */
    "direct-kib"(m, p) {
      const block = intParam(p, "block_kib", 4, 64) * 1024;
      const bs = intParam(p, "write_kib", 4, 1024) * 1024;
      const total = intParam(p, "total_kib", 4, 64 * 1024) * 1024;
      const layout = LAYOUTS.find((l) => l.block_size === block && l.cluster_size === block);
      if (!layout) throw new Error(`block_kib ${block / 1024}: the lab's layouts have 4 or 64 KiB blocks`);
      const w = ext4WriteFile(m, layout, true, total, bs);
      return Math.round((total + w.zero_bytes) / 1024);
    },
    /**
     * write-path's buffered write: <write_kib> KiB at <offset_kib> KiB into a file with nothing
     * of it cached. The folios the page cache copies it into (large folios, as ext4 has them
     * since 6.16), one ext4_da_write_begin() each.
     */
    "write-folios"(m, p) {
      const kib = intParam(p, "write_kib", 1, 1024);
      const at = intParam(p, "offset_kib", 0, 1 << 20);
      return ext4WriteFolios(m, at * 1024, kib * 1024).length;
    },
  },
};
