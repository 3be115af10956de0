export declare const ROOTFS_CHUNK: number;
export declare function rootfsChunkName(name: string, i: number): string;
export declare function rootfsStoredNames(name: string, size: number): string[];
