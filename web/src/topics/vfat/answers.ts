// The vfat model's answers for a learner's problem (shared/answers.ts).
import type { TopicAnswers } from "../../shared/answers";
import { intParam } from "../../shared/answers";
import { VfatError, vfatName, type Codepage, type IoCharset } from "./vfat-core";

const list = (v: unknown) => (typeof v === "string" && v.trim() ? v.split("|") : []);

export const topicAnswers: TopicAnswers<"vfat"> = {
  core: "vfat",
  answers: {
    /**
     * vfat-codepages' directory: `names` (| between them), then longname1.txt ..
     * longname<long_files>.txt, then `after`, created in that order in one directory under
     * -o <iocharset>,codepage=<codepage>. How many of their 8.3 names got a ~N tail.
     */
    tails(m, p) {
      const cp = intParam(p, "codepage", 437, 932);
      if (cp !== 437 && cp !== 932) throw new Error(`codepage ${cp}: the model knows 437 and 932`);
      const io = p.iocharset;
      if (io !== "utf8" && io !== "iso8859-1") throw new Error(`iocharset ${JSON.stringify(io)}: utf8 or iso8859-1`);
      const k = intParam(p, "long_files", 0, 9);
      const names = [...list(p.names), ...Array.from({ length: k }, (_, i) => `longname${i + 1}.txt`), ...list(p.after)];
      const shorts: Uint8Array[] = [];
      for (const n of names)
        try {
          shorts.push(vfatName(m, n, io as IoCharset, cp as Codepage, shorts).short);
        } catch (e) {
          // a name that differs from one made before only in case opens that file (`: >` makes no new one)
          if (!(e instanceof VfatError && /taken/.test(e.message))) throw e;
        }
      return shorts.filter((s) => s.includes(0x7e)).length;
    },
  },
};
