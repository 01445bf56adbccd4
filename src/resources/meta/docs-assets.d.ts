// Files imported with `?raw` are bundled into the Worker as their text: by Vite's `?raw`
// in the vitest pool, and by the `Text` module rule in wrangler.toml for `wrangler dev`
// and `wrangler deploy` (esbuild).
declare module "*?raw" {
  const text: string;
  export default text;
}
