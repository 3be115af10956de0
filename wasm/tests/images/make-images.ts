// Makes the inspectors' test images with the real tools and the real kernel: boots the guest
// in Node, runs each topic's recipes (mkfs, mount, populate through the kernel, umount), and
// stores the image gzipped beside this file. The images are committed, so tests and fuzzers
// need no VM; rerun this when a recipe changes:  npx tsx wasm/tests/images/make-images.ts [name...]
import { writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { NodeVm } from "../../../web/src/vm/node/node-vm";
import type { ImageRecipe } from "../../../web/src/shared/inspect/test-images";
import { topicsWith } from "../../../web/src/topics/folders";

const HERE = fileURLToPath(new URL(".", import.meta.url));


// every topic's recipes (web/src/topics/<t>/test-images.ts), found by folder
const RECIPES: ImageRecipe[] = [];
for (const id of topicsWith("test-images.ts"))
  RECIPES.push(...((await import(`../../../web/src/topics/${id}/test-images.ts`)) as { imageRecipes: ImageRecipe[] }).imageRecipes);

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
