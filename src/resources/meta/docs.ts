// GET /v1/docs: an interactive API reference (Swagger UI, npm `swagger-ui-dist`) rendered
// in the browser from /v1/openapi.json. The page, Swagger UI's script and style and the
// small start script are all served by the Worker itself (bundled into it as text, see
// docs-assets.d.ts), so the page works offline: nothing is loaded from another host, and
// it runs under a Content-Security-Policy of 'self' only (src/http/security.ts).
import SWAGGER_UI_SCRIPT from "swagger-ui-dist/swagger-ui-bundle.js?raw";
import SWAGGER_UI_STYLE from "swagger-ui-dist/swagger-ui.css?raw";

export { SWAGGER_UI_SCRIPT, SWAGGER_UI_STYLE };

export const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Domain name management API — reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/v1/docs/swagger-ui.css">
<link rel="stylesheet" href="/v1/docs/reference.css">
</head>
<body>
<noscript>This reference needs JavaScript; the API description itself is at <a href="/v1/openapi.json">/v1/openapi.json</a>.</noscript>
<div id="swagger-ui"></div>
<script src="/v1/docs/swagger-ui-bundle.js"></script>
<script src="/v1/docs/reference.js"></script>
</body>
</html>`;

export const DOCS_STYLE = `html { box-sizing: border-box; overflow-y: scroll; }
*, *::before, *::after { box-sizing: inherit; }
body { margin: 0; background: #fafafa; }
`;

// Starts Swagger UI on /v1/openapi.json. validatorUrl: null turns off the badge that
// would send the document to validator.swagger.io; "Try it out" calls this origin only.
export const DOCS_SCRIPT = `window.ui = SwaggerUIBundle({
  url: "/v1/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  validatorUrl: null,
  displayRequestDuration: true,
  docExpansion: "list",
  filter: true,
  tryItOutEnabled: false,
  persistAuthorization: false,
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
});
`;
