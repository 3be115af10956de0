// F2FS: unlink scaling and the free-NID scan, upstream against CLUE. C core: wasm/src/f2fs
// (fxmark.c, nid.c); lab f2fs-clue.
import { defineTopic } from "../../shared/topic";
import type { TopicAnswers } from "../../shared/answers";
import { F2FS_PARAMS } from "./params";

export default defineTopic({
  id: "f2fs",
  title: "F2FS free NIDs and CLUE",
  playgrounds: [
    {
      route: "f2fs",
      layer: "filesystem",
      title: "F2FS unlink on many cores: upstream against CLUE",
      blurb: "FxMark's unlink workloads on 1 to 120 simulated cores; predict CLUE's speed-up, then see where the cores wait.",
      params: F2FS_PARAMS,
      widest: ["Run without predicting"],
      load: () => import("./PlayF2fs").then((m) => m.PlayF2fs),
    },
  ],
  views: [{ id: "f2fs-nid", title: "the kernel's free-NID scans, one table per mount, against the model of the lab's steps under clue 0 and 4, and the NAT of `/mnt/host/f2fs.img` against the model's", params: {}, load: () => import("./lab-views").then((m) => m.F2fsNidLab) }],
  vmBench: { module: "bench-vm-cli.ts" },
  guestWork: ["truncate -s 64M /tmp/f.img && mkfs.f2fs -q /tmp/f.img && mkdir -p /mnt/f && mount -o loop /tmp/f.img /mnt/f && for i in $(seq 300); do echo x > /mnt/f/f$i; done && umount /mnt/f && rm /tmp/f.img"],
  cli: [
    { name: "f2fs", synopsis: "[options] [--json]", summary: "FxMark unlink on 1..120 cores, upstream vs CLUE", module: "cli.ts" },
    { name: "f2fs-nid", synopsis: "[options] [--json]", summary: "the free-NID scans of fslab-bench's f2fs-clue workload, per clue mask", module: "cli.ts" },
  ],
  inspect: { fs: "f2fs", module: "inspect-cli.ts" },
  graders: {
    specs: [
      {
        id: "scan-free-nid-bits",
        function: "scan_free_nid_bits",
        summary: "F2FS's walk of the free-NID bitmaps, with CLUE's heuristic start (clue bit 2), replayed over the learner's kernel's creates, removals and syncs",
        moment: () => import("./GradeMoment").then((m) => m.NidMoment),
      },
    ],
    load: () => import("./grader").then((m) => m.topicGraders),
  },
  answers: {
    specs: [
      {
        id: "nids-scanned",
        summary: "NAT entries the free-NID scans read since the mount (the mount's own among them): the f2fs-clue lab's creates, removal and creates again",
        params: { files: "files created in each round", sync_every: "a sync after every this many creates", clue: "the clue mask (0: upstream, 4: lazy NAT update)" },
      },
      {
        id: "run-nids-scanned",
        summary: "NAT entries the free-NID scans of the f2fs-clue lab's run read, the mount's own scan not among them (what the run's f2fs_free_nid_scan events add up to)",
        params: { files: "files created in each round", sync_every: "a sync after every this many creates", clue: "the clue mask (0: upstream, 4: lazy NAT update)" },
      },
      {
        id: "valid-nids",
        summary: "the NIDs in use on the learner's own volume: its NAT (each block's current copy, the checkpoint's journal on top) as the F2FS inspector reads it",
        image: "an F2FS volume's metadata area (superblock to main_blkaddr)",
        params: {},
      },
      {
        id: "nat-deferred",
        summary: "NAT entry scans a background caller deferred to the checkpoint over the same steps",
        params: { files: "files created in each round", sync_every: "a sync after every this many creates", clue: "the clue mask (0: upstream, 4: lazy NAT update)" },
      },
      {
        id: "create-nat-scans",
        summary: "NAT entry scans a create ran itself, the free-NID list empty (not the mount's, not one a background caller ran or put off): a fresh volume, a mkdir and its creates only",
        params: { files: "files created", sync_every: "a sync after every this many creates", clue: "the clue mask (0: upstream, 4: lazy NAT update)" },
      },
    ],
    load: () => import("./answers").then((m) => m.topicAnswers as TopicAnswers),
  },
});
