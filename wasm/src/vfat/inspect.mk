# the vfat inspector reads short names and code pages with this core's own code (the inspect
# module links these beside the inspectors; wasm/Makefile includes every src/<fs>/inspect.mk)
INSPECT_SRC_vfat := src/vfat/names.c src/vfat/nls_tables.c
