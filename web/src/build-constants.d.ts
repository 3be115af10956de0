// Values the build writes into the page (Vite's `define`).

/** vm/v86.wasm.gz's size in bytes (web/vm-files.ts): what "Start the Linux VM" downloads beside the state */
declare const __V86_WASM_GZ_BYTES__: number;
