// ext4: block size above page size against bigalloc. C core: wasm/src/ext4; lab ext4-lbs.
import { defineTopic } from "../../shared/topic";
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
  cli: [{ name: "ext4", synopsis: "[--size SIZE] [--json]", summary: "bitmap-checksum cost of allocations at 4k, bigalloc and 64k blocks", module: "cli.ts" }],
  inspect: { fs: "ext4", module: "inspect-cli.ts" },
});
