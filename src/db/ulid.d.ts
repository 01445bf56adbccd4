/** Crockford's base 32: no I, L, O or U. */
export declare const CROCKFORD: string;
/** The 10-character time part for `time` milliseconds. */
export declare function encodeTime(time: number): string;
/** A ULID for the instant `at` (milliseconds; now when omitted), after every ULID made before it in this isolate or process. */
export declare function ulid(at?: number): string;
/** `count` ULIDs for the instant `at`, in order, after every ULID made before them: one time part and one random draw for all. */
export declare function ulids(count: number, at?: number): string[];
