// The FAT inspector's test images (wasm/tests/images/make-images.ts runs each recipe in the
// guest with the real mkfs and the real kernel): $dev is a loop device over a RAM file of `mb`
// MiB, /mnt/i a mount point, and `fill N` N bytes of text (compressible, so the committed
// images stay small).
import type { ImageRecipe } from "../../shared/inspect/test-images";
import { VFAT_NAMES, VFAT_MOUNTS } from "./vfat-names";

export const imageRecipes: ImageRecipe[] = [
  {
    // VFAT names (the blog series' cases): the same names created under three mounts, each in its own
    // directory: utf8 with code page 932 and 437, and iocharset=iso8859-1 with 932
    name: "vfat-names",
    mb: 32,
    script: `mkfs.vfat -F 16 -n FSLAB $dev >/dev/null 2>&1
      for m in ${VFAT_MOUNTS.map((m) => `"${m.options} ${m.dir}"`).join(" ")}; do
        set -- $m; umount /mnt/i 2>/dev/null || true; mount -t vfat -o $1 $dev /mnt/i; mkdir /mnt/i/$2
        for n in ${VFAT_NAMES.map((n) => `'${n}'`).join(" ")}; do : > "/mnt/i/$2/$n"; done
        fill 20000 > /mnt/i/$2/data.bin
      done`,
  },
];
