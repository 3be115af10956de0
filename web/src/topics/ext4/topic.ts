// ext4: block size above page size against bigalloc. C core: wasm/src/ext4; lab ext4-lbs.
import { defineTopic } from "../../shared/topic";
import type { TopicAnswers } from "../../shared/answers";
import { EXT4_PARAMS } from "./params";

export default defineTopic({
  id: "ext4",
  title: "ext4 block sizes",
  playgrounds: [
    {
      route: "ext4",
      layer: "filesystem",
      title: "ext4: what a bitmap checksum costs at 4k, bigalloc and 64k blocks",
      blurb: "Write a file buffered or direct at three layouts; predict, then see the crc32c bytes each allocation costs.",
      params: EXT4_PARAMS,
      widest: ["Show the real volumes"],
      load: () => import("./PlayExt4").then((m) => m.PlayExt4),
    },
  ],
  views: [{ id: "ext4-direct", title: "the bytes a device wrote for direct writes, read from `/mnt/host/ext4-direct.txt`, against the ext4 model's", params: {}, load: () => import("./lab-views").then((m) => m.Ext4DirectLab) }],
  answers: {
    specs: [
      {
        id: "direct-kib",
        summary: "KiB the device receives for direct writes to a new file: the data and the zeros to each block's end",
        params: { block_kib: "the volume's block size in KiB (4 or 64)", write_kib: "each write's size in KiB (4 or more)", total_kib: "the file's size in KiB" },
      },
      {
        id: "write-folios",
        summary: "page-cache folios a buffered write to an uncached range is copied into (large folios: one ext4_da_write_begin() each)",
        params: { write_kib: "the write's size in KiB", offset_kib: "where it starts in the file, in KiB" },
      },
    ],
    load: () => import("./answers").then((m) => m.topicAnswers as TopicAnswers),
  },
  vmBench: { module: "bench-vm-cli.ts" },
  guestWork: ["truncate -s 64M /tmp/e.img && mkfs.ext4 -q -F /tmp/e.img && mkdir -p /mnt/e && mount -o loop /tmp/e.img /mnt/e && for i in $(seq 300); do echo x > /mnt/e/f$i; done && umount /mnt/e && rm /tmp/e.img"],
  cli: [{ name: "ext4", synopsis: "[--size SIZE] [--json]", summary: "bitmap-checksum cost of allocations at 4k, bigalloc and 64k blocks", module: "cli.ts" }],
  inspect: { fs: "ext4", module: "inspect-cli.ts" },
});
