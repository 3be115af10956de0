// What the f2fs core refuses (a run it cannot simulate, an operation the model rejects), in words.
export class F2fsError extends Error {}
