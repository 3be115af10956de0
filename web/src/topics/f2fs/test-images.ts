// The F2FS inspector's test images (wasm/tests/images/make-images.ts runs each recipe in the
// guest with the real mkfs and the real kernel): $dev is a loop device over a RAM file of `mb`
// MiB, /mnt/i a mount point, and `fill N` N bytes of text (compressible, so the committed
// images stay small).
import type { ImageRecipe } from "../../shared/inspect/test-images";

export const imageRecipes: ImageRecipe[] = [
  {
    // F2FS (the CLUE paper's filesystem): files made and removed by the kernel, so the NAT holds
    // valid and freed entries, some of them still in the checkpoint's NAT journal
    name: "f2fs",
    mb: 64,
    script: `mkfs.f2fs -q -f -l fslab $dev >/dev/null; mount -t f2fs $dev /mnt/i
      mkdir /mnt/i/a; for i in $(seq 1 600); do : > /mnt/i/a/f$i; done; sync
      for i in $(seq 1 600); do ((i % 3)) || rm /mnt/i/a/f$i; done; sync
      mkdir /mnt/i/b; for i in $(seq 1 25); do fill 5000 > /mnt/i/b/g$i; done`,
  },
];
