// VFAT names under code pages and iocharsets. C core: wasm/src/vfat (names.c); lab vfat-codepages.
import { defineTopic } from "../../shared/topic";
import type { TopicAnswers } from "../../shared/answers";
import { VFAT_PARAMS } from "./params";

export default defineTopic({
  id: "vfat",
  title: "VFAT names and code pages",
  playgrounds: [
    {
      route: "vfat",
      layer: "vfs",
      title: "VFAT: one name, two names on disk",
      blurb: "Type a name; see its 8.3 bytes and long-name entries under code pages 437 and 932 and two iocharsets.",
      params: VFAT_PARAMS,
      load: () => import("./PlayVfat").then((m) => m.PlayVfat),
    },
  ],
  views: [
    {
      id: "vfat-names",
      title: "the FAT volume `/mnt/host/vfat.img` inspected, every entry beside the vfat model's for the same name under the same mount",
      params: {},
      load: () => import("./lab-views").then((m) => m.VfatVolumeLab),
    },
  ],
  answers: {
    specs: [
      {
        id: "tails",
        summary: "8.3 names with a ~N tail in a directory made of the given names, in order, under a mount's options",
        params: { names: "the names made first, | between them", long_files: "then longname1.txt .. longnameN.txt", after: "then these names, | between them", codepage: "437 or 932", iocharset: "utf8 or iso8859-1" },
      },
    ],
    load: () => import("./answers").then((m) => m.topicAnswers as TopicAnswers),
  },
  guestWork: ["truncate -s 32M /tmp/v.img && mkfs.vfat /tmp/v.img >/dev/null && mkdir -p /mnt/v && mount -o loop,iocharset=utf8 /tmp/v.img /mnt/v && for i in $(seq 200); do echo x > /mnt/v/Ünïcode$i; done && umount /mnt/v && rm /tmp/v.img"],
  cli: [{ name: "vfat", synopsis: "NAME... [--json]", summary: "the 8.3 and long-name entries VFAT writes, per iocharset and codepage", module: "cli.ts" }],
  inspect: { fs: "vfat", module: "inspect-cli.ts" },
});
