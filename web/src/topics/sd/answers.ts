// The SD card model's answers for a learner's problem (shared/answers.ts).
import type { TopicAnswers } from "../../shared/answers";
import { intParam } from "../../shared/answers";
import { CARD_TYPES, decodeCsd, sdAttach, type CardType } from "./sd-core";
import { cardSizeError } from "../../shared/sd-card-spec";

export const topicAnswers: TopicAnswers<"sd"> = {
  core: "sd",
  answers: {
    /**
     * sd-card's card: one of <card_kib> KiB of the given type, brought up by the model as the
     * MMC core does; its capacity in 512-byte sectors as mmc_decode_csd reads the CSD (CMD9).
     */
    "card-sectors"(m, p) {
      const type = p.type;
      if (typeof type !== "string" || !(CARD_TYPES as readonly string[]).includes(type)) throw new Error(`type is ${JSON.stringify(type)}: one of ${CARD_TYPES.join(", ")}`);
      const kib = intParam(p, "card_kib", 64, 2 ** 31);
      const wrong = cardSizeError(type as CardType, kib * 1024);
      if (wrong) throw new Error(`card_kib ${kib}: ${wrong}`);
      const cmd9 = sdAttach(m, type as CardType, kib * 1024).find((r) => r.opcode === 9 && !r.app && r.err === 0);
      if (!cmd9) throw new Error(`the model's ${type} card of ${kib} KiB answered no CMD9`);
      return decodeCsd(m, cmd9.resp).sectors;
    },
  },
};
