# exfat-discard   [MB]     rm of a file, batch_discard 1 vs 0, discard requests counted
# Sourced by fslab-bench (which defines now_ms, die, loopdev and cleanup) with the scenario's
# options as $@; prints one JSON object per measurement.
EX=/sys/module/exfat/parameters

exfat_discard() {
  local mb=${1:-64} policy dev t0 t1
  for policy in 1 0; do
    dev=$(loopdev /tmp/bench-exfat.img $((mb + 32)))
    mkfs.exfat -c 4K "$dev" >/dev/null || die "mkfs.exfat failed"
    mkdir -p /mnt/bench && mount -o discard "$dev" /mnt/bench || die "mount failed"
    dd if=/dev/zero of=/mnt/bench/big bs=1M count="$mb" 2>/dev/null; sync
    echo "$policy" > $EX/batch_discard; echo 0 > $EX/discard_calls
    t0=$(now_ms); rm /mnt/bench/big; sync; t1=$(now_ms)
    echo "{\"scenario\":\"exfat-discard\",\"batch_discard\":$policy,\"file_mb\":$mb,\"clusters\":$((mb * 256)),\"discard_calls\":$(cat $EX/discard_calls),\"rm_ms\":$((t1 - t0))}"
    cleanup /mnt/bench "$dev" /tmp/bench-exfat.img
  done
  echo 1 > $EX/batch_discard
}

exfat_discard "$@"
