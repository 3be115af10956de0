// The block bitmaps of a real ext4 image, group by group: where the inspector found each
// group's bitmap block (its descriptor's bg_block_bitmap), the first `clusters` bits of it,
// one per cluster (per block unless bigalloc). A BLOCK_UNINIT group has no bitmap on disk:
// the kernel builds it from the layout when first needed, so it comes back as null.
import type { Ext4Report } from "./inspect-report";

export interface GroupBitmap {
  group: number;
  clusters: number;
  /** the group's bits, or null when the group is BLOCK_UNINIT */
  bits: Uint8Array | null;
  used: number; // clusters in use: from the bits, or from the descriptor when uninit
}

export function groupBitmaps(image: Uint8Array, report: Ext4Report): GroupBitmap[] {
  const bs = report.block_size;
  return report.groups.map((g) => {
    if (g.block_uninit) return { group: g.group, clusters: g.clusters, bits: null, used: g.clusters - g.free_clusters };
    const at = g.block_bitmap * bs;
    const bytes = Math.ceil(g.clusters / 8);
    if (at + bytes > image.length) throw new Error(`group ${g.group}'s bitmap at block ${g.block_bitmap} lies past the end of the image`);
    const bits = image.slice(at, at + bytes);
    if (g.clusters % 8) bits[bytes - 1] &= (1 << (g.clusters % 8)) - 1; // padding past the group
    let used = 0;
    for (let i = 0; i < bytes; i++) for (let v = bits[i]; v; v &= v - 1) used++;
    return { group: g.group, clusters: g.clusters, bits, used };
  });
}
