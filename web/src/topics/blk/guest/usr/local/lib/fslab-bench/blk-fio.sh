# blk-fio         [S]      fio bs=1M seq/rand reads, numjobs 1/4, iodepth 1/4, per scheduler
# Sourced by fslab-bench (which defines now_ms, die, loopdev and cleanup) with the scenario's
# options as $@; prints one JSON object per measurement.

blk_fio() {
  # null_blk's default device (nullb0): no media, so what differs is the scheduler's own work
  local secs=${1:-3} dev=/dev/nullb0 sched rw jobs depth line
  [ -b $dev ] || die "$dev missing (null_blk)"
  for sched in mq-deadline kyber bfq none; do
    echo $sched > /sys/block/nullb0/queue/scheduler 2>/dev/null || { echo "{\"scenario\":\"blk-fio\",\"scheduler\":\"$sched\",\"error\":\"not available\"}"; continue; }
    for rw in read randread; do
      for jobs in 1 4; do
        for depth in 1 4; do
          line=$(fio --name=b --filename=$dev --rw=$rw --bs=1M --numjobs=$jobs --iodepth=$depth \
                 --ioengine=libaio --direct=1 --size=256M --time_based --runtime=$secs \
                 --group_reporting --output-format=terse --terse-version=3 2>/dev/null | tail -n1)
          # terse v3: field 7 = read bandwidth KiB/s, 8 = read IOPS
          local bw=$(echo "$line" | cut -d';' -f7) iops=$(echo "$line" | cut -d';' -f8)
          if [ -z "$bw" ]; then
            echo "{\"scenario\":\"blk-fio\",\"scheduler\":\"$sched\",\"rw\":\"$rw\",\"numjobs\":$jobs,\"iodepth\":$depth,\"error\":\"fio failed\"}"
          else
            echo "{\"scenario\":\"blk-fio\",\"scheduler\":\"$sched\",\"rw\":\"$rw\",\"numjobs\":$jobs,\"iodepth\":$depth,\"bw_kib_s\":$bw,\"iops\":$iops}"
          fi
        done
      done
    done
  done
  echo none > /sys/block/nullb0/queue/scheduler
}

blk_fio "$@"
