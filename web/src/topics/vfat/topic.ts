// VFAT names under code pages and iocharsets. C core: wasm/src/vfat (names.c); lab vfat-codepages.
import { defineTopic } from "../../shared/topic";
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
  cli: [{ name: "vfat", synopsis: "NAME... [--json]", summary: "the 8.3 and long-name entries VFAT writes, per iocharset and codepage", module: "cli.ts" }],
  inspect: { fs: "vfat", module: "inspect-cli.ts" },
});
