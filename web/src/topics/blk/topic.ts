// The block layer: blk-mq with none, mq-deadline, kyber and bfq. C core: wasm/src/blk; labs
// mq-deadline and io-schedulers.
import { defineTopic } from "../../shared/topic";
import type { TopicAnswers } from "../../shared/answers";
import { BLK_PARAMS } from "./params";

export default defineTopic({
  id: "blk",
  title: "Block layer and I/O schedulers",
  playgrounds: [
    {
      route: "blk",
      layer: "scheduler",
      title: "Block layer: mq-deadline against none",
      blurb: "Run fio-like jobs on a simulated disk, SD card or SSD; predict, then see every request's sector against time.",
      params: BLK_PARAMS,
      widest: ["Run without predicting", "recorded: null_blk, two readers and a writer"],
      load: () => import("./PlayBlk").then((m) => m.PlayBlk),
    },
  ],
  views: [{ id: "mq-deadline", title: "the kernel's mq-deadline lists and decisions followed live, each judged by the model; a line `fslab: iosched read_expire=… fifo_batch=…` written to `trace_marker` starts a new run with those settings", params: {}, load: () => import("./lab-views").then((m) => m.MqDeadlineLab) },
    { id: "io-schedulers", title: "the guest's fio runs under none, mq-deadline, kyber and bfq (`/mnt/host/iosched/`): bandwidth, completion-latency percentiles and CPU time, beside the block model's bandwidth for the same pattern", params: {}, load: () => import("./lab-views").then((m) => m.IoSchedLab) },
  ],
  answers: {
    specs: [
      { id: "diverge-rule", summary: "the mq-deadline rule a token written to mq_deadline.diverge breaks", params: { token: "the token the lab writes (1 to 4294967295)" } },
      { id: "diverge-line", summary: "the line of block/mq-deadline.c that implements the rule a token breaks", params: { token: "the token the lab writes" } },
      {
        id: "reads-between-writes",
        summary: "the most reads mq-deadline dispatches between two write batches while reads and writes both wait and no deadline passes",
        params: { fifo_batch: "the queue's fifo_batch (1 to 256)", writes_starved: "the queue's writes_starved (1 to 64)" },
      },
    ],
    load: () => import("./answers").then((m) => m.topicAnswers as TopicAnswers),
  },
  graders: {
    specs: [
      {
        id: "dd-dispatch",
        function: "__dd_dispatch_request",
        summary: "mq-deadline's choice of the next request (batch, direction, starvation, expired deadline), replayed over the learner's kernel's trace",
        moment: () => import("./GradeMoment").then((m) => m.DdMoment),
      },
    ],
    load: () => import("./grader").then((m) => m.topicGraders),
  },
  vmBench: { module: "bench-vm-cli.ts" },
  guestWork: ["d=/sys/kernel/config/nullb/nullb2; mkdir -p $d && echo 512 > $d/size && echo 32 > $d/hw_queue_depth && echo 2 > $d/irqmode && echo 20000 > $d/completion_nsec && echo 1 > $d/power && for s in none mq-deadline kyber bfq; do echo $s > /sys/block/nullb2/queue/scheduler; fio --name=r --filename=/dev/nullb2 --rw=randread --bs=1M --direct=1 --ioengine=libaio --numjobs=4 --iodepth=4 --size=64M --offset_increment=64M --time_based --runtime=1 --group_reporting >/dev/null; done"],
  cli: [
    {
      name: "blk",
      synopsis: "[options] [--json]",
      summary: "none, mq-deadline, kyber and bfq on fio-like jobs; --trace: a guest trace replayed; --decisions: mq-deadline, kernel vs model",
      module: "cli.ts",
    },
  ],
});
