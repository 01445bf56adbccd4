/** How a path segment or a filter names a row: by its id, or by its (normalised) name. */
export type ResourceRef = { kind: "id"; id: string } | { kind: "name"; name: string };
