// exFAT: batched discard on delete (Linux 6.15) and the empty-entry hint (6.2). C core:
// wasm/src/exfat; labs exfat-discard and exfat-empty-hint.
import { defineTopic } from "../../shared/topic";
import type { TopicAnswers } from "../../shared/answers";
import { EXFAT_PARAMS, EXFAT_CLUSTERS_PARAMS, EXFAT_DIR_PARAMS } from "./params";

export default defineTopic({
  id: "exfat",
  title: "exFAT",
  playgrounds: [
    {
      route: "exfat",
      layer: "filesystem",
      title: "exFAT: what deleting a file costs in discard requests",
      blurb: "Choose a file's size and pieces; predict the discard requests under Linux 6.14 and 6.15, then replay the delete.",
      params: EXFAT_PARAMS,
      widest: ["Run without predicting"],
      load: () => import("./PlayExfat").then((m) => m.PlayExfat),
    },
    {
      route: "exfat-dir",
      layer: "filesystem",
      title: "exFAT: how far does a create search for free directory entries?",
      blurb: "Create, remove and create again in one directory; predict how much more the search examines without Linux 6.2's hint.",
      params: EXFAT_DIR_PARAMS,
      widest: ["Run without predicting"],
      load: () => import("./PlayExfatDir").then((m) => m.PlayExfatDir),
    },
  ],
  views: [
    {
      id: "exfat-clusters",
      title: "the cluster heap model and the kernel's discards, live, and the learner's volume `/mnt/host/exfat.img` inspected",
      params: EXFAT_CLUSTERS_PARAMS,
      load: () => import("./lab-views").then((m) => m.ExfatClustersLab),
    },
    {
      id: "exfat-dir",
      title: "the directory slots model, the kernel's empty-entry searches compared with it live, and the disk image `/mnt/host/dir.img` inspected",
      params: {},
      load: () => import("./lab-views").then((m) => m.ExfatDirLab),
    },
  ],
  vmBench: { module: "bench-vm-cli.ts" },
  guestWork: ["truncate -s 64M /tmp/x.img && mkfs.exfat /tmp/x.img >/dev/null && mkdir -p /mnt/x && mount -o loop /tmp/x.img /mnt/x && for i in $(seq 300); do echo x > /mnt/x/f$i; done && rm /mnt/x/f* && umount /mnt/x && rm /tmp/x.img"],
  cli: [
    { name: "exfat", synopsis: "[options] [--json]", summary: "a delete's discard requests and cost, per cluster vs batched", module: "cli.ts" },
    { name: "exfat-dir", synopsis: "[options] [--json]", summary: "entries the empty-entry search examines, with and without the 6.2 hint", module: "cli.ts" },
  ],
  inspect: { fs: "exfat", module: "inspect-cli.ts" },
  answers: {
    specs: [
      {
        id: "delete-discards",
        summary: "discard requests a delete sends: a file written in pieces while a log grows between them, deleted under one policy",
        params: { pieces: "the file's pieces (runs)", piece_clusters: "clusters in each piece", batch_discard: "1: one request per run (6.15); 0: one per cluster (6.14)" },
      },
      {
        id: "file-discards",
        summary: "discard requests deleting a file of the learner's own volume sends, from its chain as the inspector reads it on their disk",
        image: "an exFAT volume's image: the file's chain, from its FAT (or its NoFatChain run)",
        params: { path: "the file's path on the volume (/frag)", batch_discard: "1: one request per run (6.15); 0: one per cluster (6.14)" },
      },
      {
        id: "dir-examined",
        summary: "directory entries the empty-entry searches read: files created, every k-th removed, then names of 4 entries",
        params: { files: "short names f1..fN created", remove_every: "every k-th removed (0: none)", long_names: "4-entry names created after", empty_hint: "1: Linux 6.2's hint; 0: 6.1's search" },
      },
    ],
    load: () => import("./answers").then((m) => m.topicAnswers as TopicAnswers),
  },
  graders: {
    specs: [
      {
        id: "set-empty-hint",
        function: "exfat_set_empty_hint",
        summary: "exFAT's empty-entry hint (hint_femp): which run of free entries a create's lookup leaves for the search, replayed over the learner's kernel's creates",
        moment: () => import("./GradeMoment").then((m) => m.HintMoment),
      },
      {
        id: "free-cluster-discard",
        function: "exfat_free_cluster_discard",
        summary: "exFAT's batched discard (Linux 6.15): where a run of freed clusters ends and is discarded in one request, replayed over the chain the learner's kernel freed",
        moment: () => import("./DiscardMoment").then((m) => m.DiscardMoment),
      },
    ],
    load: () => import("./grader").then((m) => m.topicGraders),
  },
  benches: [{ route: "frames", title: "frame times of the cluster grid and bitmap views", load: () => import("./BenchFrames").then((m) => m.BenchFrames) }],
});
