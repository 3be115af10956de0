# F2FS's NAT lies past 10 MiB of a 64 MiB image: inputs reach it
FUZZ_MAX_f2fs := 12910592
