// The SD card model's answers for a learner's problem (shared/answers.ts).
import { intParam, type AnswerParams, type TopicAnswers } from "../../shared/answers";
import type { CoreModules } from "@wasm/cores.mjs";
import { CARD_TYPES, decodeCsd, sdAttach, type CardType } from "./sd-core";
import { cardSizeError } from "../../shared/sd-card-spec";
import { DEFAULT_SPEED_HZ, busTimes, requestMs } from "../../shared/sd-timing";

/** The CSD the model's card of <card_kib> KiB and <type> sends (CMD9), as mmc_decode_csd reads it. */
function cardCsd(m: CoreModules["sd"], p: AnswerParams) {
  const type = p.type;
  if (typeof type !== "string" || !(CARD_TYPES as readonly string[]).includes(type)) throw new Error(`type is ${JSON.stringify(type)}: one of ${CARD_TYPES.join(", ")}`);
  const kib = intParam(p, "card_kib", 64, 2 ** 31);
  const wrong = cardSizeError(type as CardType, kib * 1024);
  if (wrong) throw new Error(`card_kib ${kib}: ${wrong}`);
  const cmd9 = sdAttach(m, type as CardType, kib * 1024).find((r) => r.opcode === 9 && !r.app && r.err === 0);
  if (!cmd9) throw new Error(`the model's ${type} card of ${kib} KiB answered no CMD9`);
  return decodeCsd(m, cmd9.resp);
}

export const topicAnswers: TopicAnswers<"sd"> = {
  core: "sd",
  answers: {
    /**
     * sd-card's card: one of <card_kib> KiB of the given type, brought up by the model as the
     * MMC core does; its capacity in 512-byte sectors as mmc_decode_csd reads the CSD (CMD9).
     */
    "card-sectors"(m, p) {
      return cardCsd(m, p).sectors;
    },
    /**
     * sd-card's read at the card's end: the argument of the read command (CMD17/CMD18) for a
     * read of the card's last <end_kib> KiB. mmc_blk_data_prep() shifts the sector left by 9
     * unless the card is block-addressed, which mmc_decode_csd() sets for a version 2 CSD.
     */
    "read-arg"(m, p) {
      const csd = cardCsd(m, p);
      const endKib = intParam(p, "end_kib", 1, 1024);
      const sector = csd.sectors - endKib * 2;
      if (sector < 0) throw new Error(`end_kib ${endKib}: the card holds only ${csd.sectors} sectors`);
      return csd.structure === 0 ? sector * 512 : sector;
    },
    /**
     * io-schedulers' card, as Linux runs it (25 MHz, 4 data lines): one command of <kib> KiB
     * from its command to the end of its busy, what the device charges it (sd-timing.ts, the
     * same function the emulated card's clock uses). The guest's CPU adds its own time.
     */
    "request-us"(_m, p) {
      const kib = intParam(p, "kib", 1, 1024);
      const write = intParam(p, "write", 0, 1) === 1;
      const random = intParam(p, "random", 0, 1) === 1;
      return Math.round(1000 * requestMs(busTimes(DEFAULT_SPEED_HZ, 4), write, kib * 2, random));
    },
  },
};
