# the blk core's trace target (fuzz_trace.c beside this file): linked with the block core, not
# the inspectors; no image seeds it (trace-seeds.ts wrote its corpus from the recorded traces);
# a trace's inputs are far smaller than an image's
FUZZ_SRC_trace = $(SRC_blk)
FUZZ_IMAGES_trace := no-image-
FUZZ_MAX_trace := 262144
