// Makes the inspectors' test images with the real tools and the real kernel: boots the guest
// in Node, runs each recipe below (mkfs, mount, populate through the kernel, umount), and
// stores the image gzipped beside this file. The images are committed, so tests and fuzzers
// need no VM; rerun this when a recipe changes:  npx tsx wasm/tests/images/make-images.ts
import { writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { NodeVm } from "../../../web/src/vm/node-vm";

const HERE = fileURLToPath(new URL(".", import.meta.url));

// Each recipe gets $dev (a loop device over a RAM file of the given size), /mnt/i, and
// `fill N`: N bytes of text (compressible, so the committed images stay small).
const RECIPES: Array<{ name: string; mb: number; script: string }> = [
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

const vm = new NodeVm();
await vm.boot();
try {
  for (const r of RECIPES) {
    const run = await vm.run(`set -e; mkdir -p /mnt/i; rm -f /tmp/i.img; truncate -s ${r.mb}M /tmp/i.img
      dev=$(losetup -f --show /tmp/i.img)
      fill() { yes "fslab test image $1" | head -c $1; }
      ${r.script}
      umount /mnt/i; losetup -d $dev; cp /tmp/i.img /mnt/host/${r.name}.img; sync`);
    if (run.status !== 0) throw new Error(`recipe ${r.name} failed (${run.status}):\n${run.output}`);
    const bytes = await vm.readSharedFile(`${r.name}.img`);
    writeFileSync(`${HERE}${r.name}.img.gz`, gzipSync(bytes, { level: 9 }));
    console.log(`${r.name}.img.gz: ${bytes.length} bytes`);
  }
} finally {
  await vm.destroy();
}
