# f2fs-clue       [N] [MASKS]  create and unlink N files with each clue mask; scan counters; fsck
# Sourced by fslab-bench (which defines now_ms, die, loopdev and cleanup) with the scenario's
# options as $@; prints one JSON object per measurement.

f2fs_clue() {
  local n=${1:-8000} masks=${2:-0 1 2 4 7} mask dev d c t0 t1 fsck
  for mask in $masks; do
    dev=$(loopdev /tmp/bench-f2fs.img 256)
    mkfs.f2fs -q -f "$dev" >/dev/null && mkdir -p /mnt/bench && mount -t f2fs "$dev" /mnt/bench || die "f2fs setup failed"
    d=/sys/fs/f2fs/$(basename "$dev")
    echo "$mask" > "$d/clue"
    for c in bitmap_scans nat_scans scans_skipped nat_deferred nids_scanned; do echo 0 > "$d/clue_$c"; done
    t0=$(now_ms)
    # 1. Fill: the free-NID list runs dry and NAT entry scans refill it. A sync every 500
    # files is writeback's turn: f2fs_write_node_pages -> f2fs_balance_fs_bg ->
    # f2fs_build_free_nids(sync=false), the background caller CLUE's lazy update defers.
    mkdir /mnt/bench/a; for ((i = 1; i <= n; i++)); do : > /mnt/bench/a/f$i; ((i % 500)) || sync; done; sync
    # 2. Free them all, then let the shrinker trim the free-NID list to MAX_FREE_NIDS (3640):
    # the NIDs beyond it stay only in the free-NID bitmap, which the bitmap scan walks (from
    # NID 0 upstream, from where it last stopped under CLUE's heuristic).
    rm -rf /mnt/bench/a; sync
    echo 3 > /proc/sys/vm/drop_caches
    # 3. Fill again from four writers at once: on v86's one CPU a bitmap scan that sleeps
    # (on nat_tree_lock, held by a checkpoint) can be found running by another writer,
    # which CLUE's optimistic scan lets go straight on.
    # A syncer keeps checkpoints coming meanwhile.
    local writers=()
    for ((j = 1; j <= 4; j++)); do
      (mkdir /mnt/bench/b$j; for ((i = 1; i <= n / 4; i++)); do : > /mnt/bench/b$j/f$i; ((i % 500)) || sync; done) &
      writers+=($!)
    done
    (while kill -0 "${writers[@]}" 2>/dev/null; do sync; done) &
    wait
    rm -rf /mnt/bench/a /mnt/bench/b*; sync
    t1=$(now_ms)
    local out="\"clue\":$mask,\"files\":$n,\"ms\":$((t1 - t0))"
    for c in bitmap_scans nat_scans scans_skipped nat_deferred nids_scanned; do out="$out,\"$c\":$(cat "$d/clue_$c")"; done
    umount /mnt/bench
    fsck.f2fs -f "$dev" > /tmp/bench-fsck.log 2>&1; fsck=$?
    grep -q "Fail" /tmp/bench-fsck.log && fsck=1
    echo "{\"scenario\":\"f2fs-clue\",$out,\"fsck_exit\":$fsck}"
    losetup -d "$dev"; rm -f /tmp/bench-f2fs.img
  done
}

f2fs_clue "$@"
