// GET /v1/docs: a human API reference rendered in the browser from /v1/openapi.json.
// The page, its script and its style are all served by the Worker (no CDN, no other
// host), so it works offline and under a Content-Security-Policy of 'self' only.
export const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Domain name management API — reference</title>
<link rel="stylesheet" href="/v1/docs/reference.css">
</head>
<body>
<header><h1 id="title">Domain name management API</h1><p id="description" class="muted">Loading /v1/openapi.json…</p></header>
<main><nav id="nav"></nav><section id="operations"></section></main>
<script src="/v1/docs/reference.js"></script>
</body>
</html>`;

export const DOCS_STYLE = `  :root { --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --bg: #f6f8fa; }
  body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); margin: 0; }
  header { padding: 1.5rem 2rem; border-bottom: 1px solid var(--line); }
  main { display: grid; grid-template-columns: 16rem 1fr; }
  nav { padding: 1rem; border-right: 1px solid var(--line); position: sticky; top: 0; height: 100vh; overflow: auto; }
  nav a { display: block; color: var(--fg); text-decoration: none; padding: .1rem 0; font-size: .9rem; }
  section { padding: 1rem 2rem; }
  .op { border: 1px solid var(--line); border-radius: 6px; margin: 1rem 0; }
  .op > summary { cursor: pointer; padding: .6rem .8rem; background: var(--bg); list-style: none; }
  .op > div { padding: .6rem 1rem; }
  .method { display: inline-block; min-width: 4.5rem; font-weight: 700; text-transform: uppercase; }
  .get { color: #0969da; } .post { color: #1a7f37; } .patch { color: #9a6700; } .delete { color: #cf222e; }
  code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .85rem; }
  pre { background: var(--bg); padding: .6rem; border-radius: 4px; overflow: auto; max-height: 24rem; }
  table { border-collapse: collapse; width: 100%; } td, th { border-bottom: 1px solid var(--line); padding: .25rem .5rem; text-align: left; vertical-align: top; }
  .muted { color: var(--muted); }
`;

export const DOCS_SCRIPT = `(async () => {
  const doc = await (await fetch("/v1/openapi.json")).json();
  const el = (tag, attrs = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    for (const child of children) node.append(child);
    return node;
  };
  const resolve = (schema) => {
    if (schema && schema.$ref) return resolve(doc.components.schemas[schema.$ref.split("/").pop()]);
    return schema;
  };
  const expand = (schema, depth = 0) => {
    schema = resolve(schema);
    if (!schema || depth > 6) return schema;
    const out = { ...schema };
    if (out.properties) out.properties = Object.fromEntries(Object.entries(out.properties).map(([k, v]) => [k, expand(v, depth + 1)]));
    if (out.items) out.items = expand(out.items, depth + 1);
    return out;
  };
  document.getElementById("title").textContent = doc.info.title + " " + doc.info.version;
  document.getElementById("description").textContent = doc.info.description;
  const byTag = new Map();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const tag = (op.tags && op.tags[0]) || "Other";
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag).push({ path, method, op });
    }
  }
  const nav = document.getElementById("nav");
  const operations = document.getElementById("operations");
  for (const [tag, ops] of byTag) {
    const id = "tag-" + tag.toLowerCase().replace(/[^a-z0-9]+/g, "-");
    nav.append(el("a", { href: "#" + id }, tag));
    const section = el("div", { id }, el("h2", {}, tag));
    for (const { path, method, op } of ops) {
      const body = el("div");
      if (op.description) body.append(el("p", {}, op.description));
      if (op.parameters && op.parameters.length) {
        const table = el("table", {}, el("tr", {}, el("th", {}, "parameter"), el("th", {}, "in"), el("th", {}, "description")));
        for (const p of op.parameters) table.append(el("tr", {}, el("td", {}, el("code", {}, p.name)), el("td", {}, p.in), el("td", {}, p.description || "")));
        body.append(el("h4", {}, "Parameters"), table);
      }
      if (op.requestBody) {
        for (const [type, media] of Object.entries(op.requestBody.content || {})) {
          body.append(el("h4", {}, "Request body (" + type + ")"), el("pre", {}, JSON.stringify(expand(media.schema), null, 2)));
        }
      }
      body.append(el("h4", {}, "Responses"));
      for (const [status, response] of Object.entries(op.responses || {})) {
        body.append(el("p", {}, el("strong", {}, status + " "), response.description || ""));
      }
      const summary = el("summary", {}, el("span", { class: "method " + method }, method), " ", el("code", {}, "/v1" + path), " — ", op.summary || "");
      section.append(el("details", { class: "op", "data-operation": method.toUpperCase() + " " + path }, summary, body));
    }
    operations.append(section);
  }
})().catch((error) => {
  document.getElementById("description").textContent = "Could not load the API description: " + error;
});
`;
