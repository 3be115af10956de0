// The block model's answers for a learner's problem (shared/answers.ts).
import type { TopicAnswers } from "../../shared/answers";
import { intParam } from "../../shared/answers";
import { DIVERGE_LINES, divergeRule } from "./divergence";

const rule = (token: number) => {
  const r = divergeRule(token);
  if (!r) throw new Error("token 0 breaks no rule");
  return r;
};

export const topicAnswers: TopicAnswers<"blk"> = {
  core: "blk",
  answers: {
    /** the rule of mq-deadline a token written to mq_deadline.diverge breaks (kernel patch 0007) */
    "diverge-rule": (_m, p) => rule(intParam(p, "token", 1, 0xffffffff)),
    /** the line of block/mq-deadline.c that implements that rule */
    "diverge-line": (_m, p) => DIVERGE_LINES[rule(intParam(p, "token", 1, 0xffffffff))],
  },
};
