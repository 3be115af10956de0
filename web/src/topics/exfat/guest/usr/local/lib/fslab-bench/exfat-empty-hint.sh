# exfat-empty-hint [N] [B] N files in one directory in buckets of B, empty_hint 1 vs 0
# Sourced by fslab-bench (which defines now_ms, die, loopdev and cleanup) with the scenario's
# options as $@; prints one JSON object per measurement.
EX=/sys/module/exfat/parameters

exfat_empty_hint() {
  local n=${1:-5000} bucket=${2:-1000} hint dev i b t0 t1 ex
  for hint in 1 0; do
    dev=$(loopdev /tmp/bench-exfat.img 64)
    mkfs.exfat "$dev" >/dev/null && mkdir -p /mnt/bench && mount "$dev" /mnt/bench || die "exfat setup failed"
    mkdir /mnt/bench/d; echo "$hint" > $EX/empty_hint
    for ((b = 0; b < n / bucket; b++)); do
      echo 0 > $EX/empty_entries_examined
      t0=$(now_ms)
      for ((i = b * bucket + 1; i <= (b + 1) * bucket; i++)); do : > /mnt/bench/d/f$i; done
      t1=$(now_ms); ex=$(cat $EX/empty_entries_examined)
      echo "{\"scenario\":\"exfat-empty-hint\",\"empty_hint\":$hint,\"first\":$((b * bucket + 1)),\"last\":$(((b + 1) * bucket)),\"ms\":$((t1 - t0)),\"entries_examined\":$ex}"
    done
    cleanup /mnt/bench "$dev" /tmp/bench-exfat.img
  done
  echo 1 > $EX/empty_hint
}

exfat_empty_hint "$@"
