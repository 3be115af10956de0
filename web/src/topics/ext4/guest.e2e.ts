// ext4's direct writes smaller than a block, in the guest booted in Node: the switch flips the
// kernel's behaviour in one boot, seen through the events fslab-trace streams and sysfs.
import { describe, expect, it } from "vitest";
import { loadCoreModule } from "../../shared/node-load";
import { LAYOUTS, ext4WriteFile } from "./ext4-core";
import { bootGuest } from "../../../../e2e/guest";

const guest = bootGuest();
const { sh } = guest;

describe("ext4 direct writes smaller than a block", () => {
  it("make the device write what the model predicts: the data plus iomap's zeros to each block's end", async () => {
    const m = await loadCoreModule("ext4");
    const mkfs: Record<string, string> = { "4k": "-b 4096", "bigalloc-64k": "-b 4096 -O bigalloc -C 65536", "64k (LBS)": "-b 65536" };
    for (const l of LAYOUTS) {
      // 1 MiB to a new file by dd oflag=direct, on a fresh volume over loop; the loop device's
      // sectors-written counter before and after (no sync after: direct writes are done when dd is;
      // a sync before, so the journal commit of the last file does not land in this window)
      const out = await sh(
        `truncate -s 128M /tmp/e.img && dev=$(losetup -f --show /tmp/e.img) && mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 ${mkfs[l.name]} $dev >/dev/null 2>&1 && mkdir -p /mnt/e && mount $dev /mnt/e && sync && ` +
          `for bs in 4 16 64; do sync; w0=$(awk '{print $7}' /sys/block/\${dev#/dev/}/stat); dd if=/dev/zero of=/mnt/e/f$bs bs=\${bs}k count=$((1024 / bs)) oflag=direct status=none; ` +
          `w1=$(awk '{print $7}' /sys/block/\${dev#/dev/}/stat); echo $bs $(( (w1 - w0) * 512 )); done; umount /mnt/e; losetup -d $dev; rm /tmp/e.img`,
      );
      const measured = Object.fromEntries(out.trim().split("\n").map((line) => line.split(" ").map(Number)));
      for (const bs of [4, 16, 64]) {
        const model = ext4WriteFile(m, l, true, 1 << 20, bs * 1024);
        expect(measured[bs], `${l.name} bs=${bs}k`).toBe((1 << 20) + model.zero_bytes);
      }
    }
  });
});
