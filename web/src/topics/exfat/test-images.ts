// The exFAT inspector's test images (wasm/tests/images/make-images.ts runs each recipe in the
// guest with the real mkfs and the real kernel): $dev is a loop device over a RAM file of `mb`
// MiB, /mnt/i a mount point, and `fill N` N bytes of text (compressible, so the committed
// images stay small).
import type { ImageRecipe } from "../../shared/inspect/test-images";

export const imageRecipes: ImageRecipe[] = [
  {
    // 4 KiB clusters: a contiguous (NoFatChain) file, a fragmented (FAT-chained) pair written
    // in turns, a directory spanning several clusters, long and non-ASCII names, an empty
    // file, and deleted entries.
    name: "exfat-4k",
    mb: 8,
    script: `mkfs.exfat -c 4K -L FSLAB $dev >/dev/null; mount -t exfat $dev /mnt/i
      fill 40960 > /mnt/i/contiguous.bin
      for i in 1 2 3 4; do
        fill 16384 >> /mnt/i/fragmented.bin; sync
        fill 4096 >> /mnt/i/interleaved.log; sync
      done
      : > /mnt/i/empty
      mkdir -p /mnt/i/many/nested
      for i in $(seq 1 60); do echo $i > /mnt/i/many/file-with-a-longer-name-$i.txt; done
      echo deep > /mnt/i/many/nested/deep.txt
      echo bonjour > "/mnt/i/café-日本語.txt"
      for i in $(seq 1 10); do : > /mnt/i/gone-$i; done; rm /mnt/i/gone-*`,
  },
  {
    // 512-byte clusters packed from sector 24 (-b 512): long chains, the up-case table over
    // many clusters, and a small image that seeds the fuzzers well
    name: "exfat-512",
    mb: 1,
    script: `mkfs.exfat -c 512 -b 512 $dev >/dev/null; mount -t exfat $dev /mnt/i
      fill 30000 > /mnt/i/a
      mkdir /mnt/i/d; for i in $(seq 1 30); do echo $i > /mnt/i/d/n$i; fill 700 >> /mnt/i/a; sync; done
      fill 7700 > /mnt/i/b; rm /mnt/i/d/n1*`,
  },
];
