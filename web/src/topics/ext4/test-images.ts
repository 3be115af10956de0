// The ext4 inspector's test images (wasm/tests/images/make-images.ts runs each recipe in the
// guest with the real mkfs and the real kernel): $dev is a loop device over a RAM file of `mb`
// MiB, /mnt/i a mount point, and `fill N` N bytes of text (compressible, so the committed
// images stay small).
import type { ImageRecipe } from "../../shared/inspect/test-images";

export const imageRecipes: ImageRecipe[] = [
  // ext4 at the three layouts of the ext4 LBS series' cover letter: 4 KiB blocks, bigalloc with 64 KiB clusters, and
  // 64 KiB blocks (larger than the page: 7.2 with transparent huge pages), in small groups
  // so there are several, each written by
  // the kernel: files of several sizes, a directory of small files, one file deleted.
  ...(["4k:-b 4096 -g 2048", "bigalloc:-b 4096 -O bigalloc -C 65536 -g 2048", "64k:-b 65536 -g 256"] as const).map((spec) => {
    const [name, opts] = spec.split(":");
    return {
      name: `ext4-${name}`,
      mb: 24,
      script: `mkfs.ext4 -q -F ${opts} -L fslab-${name} -U 0d5fe7b2-3c1a-4e8d-9f60-7a2b1c4d5e6f -E root_owner=0:0 $dev
        mount -t ext4 $dev /mnt/i
        fill 300000 > /mnt/i/big; fill 70000 > /mnt/i/medium; : > /mnt/i/empty
        mkdir /mnt/i/d; for i in $(seq 1 40); do fill 900 > /mnt/i/d/f$i; done
        fill 5000000 > /mnt/i/large; sync; rm /mnt/i/medium`,
    };
  }),
];
