# ext4-dd         [MB]     dd buffered and direct writes, bs 4k..64k, on 4k / bigalloc / 64k blocks
# Sourced by fslab-bench (which defines now_ms, die, loopdev and cleanup) with the scenario's
# options as $@; prints one JSON object per measurement.

ext4_dd() {
  local mb=${1:-32} layout mkopts dev bs mode flag t0 t1
  for layout in 4k bigalloc-64k 64k; do
    case $layout in
      4k) mkopts="-b 4096" ;;
      bigalloc-64k) mkopts="-b 4096 -O bigalloc -C 65536" ;;
      64k) mkopts="-b 65536" ;;
    esac
    dev=$(loopdev /tmp/bench-ext4.img $((mb * 2 + 64)))
    mkfs.ext4 -q -F $mkopts "$dev" 2>/dev/null && mkdir -p /mnt/bench && mount "$dev" /mnt/bench \
      || { echo "{\"scenario\":\"ext4-dd\",\"layout\":\"$layout\",\"error\":\"mkfs or mount failed\"}"; cleanup /mnt/bench "$dev" /tmp/bench-ext4.img; continue; }
    for mode in buffered direct; do
      flag=""; [ $mode = direct ] && flag="oflag=direct"
      for bs in 4 8 16 32 64; do
        rm -f /mnt/bench/f; sync
        t0=$(now_ms)
        dd if=/dev/zero of=/mnt/bench/f bs=${bs}k count=$((mb * 1024 / bs)) $flag conv=fsync 2>/dev/null
        t1=$(now_ms)
        echo "{\"scenario\":\"ext4-dd\",\"layout\":\"$layout\",\"mode\":\"$mode\",\"bs_k\":$bs,\"mb\":$mb,\"ms\":$((t1 - t0)),\"mb_s\":$(( mb * 1000 / (t1 - t0 > 0 ? t1 - t0 : 1) ))}"
      done
    done
    cleanup /mnt/bench "$dev" /tmp/bench-ext4.img
  done
}

ext4_dd "$@"
