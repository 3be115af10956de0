// The storage stack, top to bottom, as the course draws it (pages/Course.tsx): a lab's
// frontmatter names the layers it works at (`layers:`, the first is where its card sits), and
// a playground's manifest names its own (`layer:` in PlaygroundSpec). The ids are what a lab
// file writes; the names and lines are what the learner reads. No imports: the lab format,
// the topic manifests and the CLI all read it.

export const LAYERS = [
  { id: "syscall", name: "System call", what: "write(), read(), open(), unlink(), fsync(): where a program asks the kernel" },
  { id: "vfs", name: "VFS", what: "paths, names and the dentry cache, file descriptors, mount options common to every filesystem" },
  { id: "filesystem", name: "Filesystem", what: "exFAT, ext4, F2FS, VFAT: on-disk structures, allocation, directories" },
  { id: "page-cache", name: "Page cache and writeback", what: "folios kept in memory, dirtied by writes, written back later or by fsync" },
  { id: "block", name: "Block layer", what: "bios and requests (blk-mq), merging, splitting, discard" },
  { id: "scheduler", name: "I/O scheduler", what: "none, mq-deadline, kyber, bfq: which request goes to the device next" },
  { id: "driver", name: "Driver", what: "loop, null_blk, mmc_block: turns requests into work on a device" },
  { id: "device", name: "Device", what: "the disk, SD card or SSD: what it was asked to do, and how long it took" },
] as const;

export type LayerId = (typeof LAYERS)[number]["id"];
export const LAYER_IDS: readonly string[] = LAYERS.map((l) => l.id);

/** A lab's difficulty, easiest first. */
export const DIFFICULTIES = ["introductory", "intermediate", "advanced"] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];

export const layerIndex = (id: string): number => LAYER_IDS.indexOf(id);
export const layerName = (id: string): string => LAYERS.find((l) => l.id === id)?.name ?? id;
