// Makes the inspectors' test images with the real tools and the real kernel: boots the guest
// in Node, runs each recipe below (mkfs, mount, populate through the kernel, umount), and
// stores the image gzipped beside this file. The images are committed, so tests and fuzzers
// need no VM; rerun this when a recipe changes:  npx tsx wasm/tests/images/make-images.ts [name...]
import { writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { NodeVm } from "../../../web/src/vm/node/node-vm";
import { VFAT_NAMES, VFAT_MOUNTS } from "../../../web/src/topics/vfat/vfat-names";

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

const only = process.argv.slice(2);
const vm = new NodeVm();
await vm.boot();
try {
  for (const r of RECIPES.filter((x) => !only.length || only.includes(x.name))) {
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
