// Types for fixtures.mjs, which runs in Node (the unit project).
export function fixture(name: string): string;
export function fixtureNames(): string[];
export function eppSources(): { name: string; text: string }[];
