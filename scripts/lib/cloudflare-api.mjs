// A local stand-in for the part of Cloudflare's v4 API that the README's deploy commands
// use, so that `npm test` can run those commands as written on a machine with no route to
// api.cloudflare.com (scripts/deploy-tour.mjs). Wrangler is pointed at it with
// CLOUDFLARE_API_BASE_URL (plus the usual CLOUDFLARE_API_TOKEN / CLOUDFLARE_ACCOUNT_ID):
//
//   GET  /user/tokens/verify, /user, /accounts, /memberships     `whoami`, every command's auth
//   POST /accounts/:a/d1/database                                `d1 create`
//   GET  /accounts/:a/d1/database                                `d1 list`, name → uuid
//   GET|PUT|PATCH /accounts/:a/d1/database/:uuid                 `d1 info`, read replication
//   POST /accounts/:a/d1/database/:uuid/query                    `d1 execute --remote`,
//                                                                `d1 migrations apply --remote`
//   PUT  /accounts/:a/workers/scripts/:name (multipart)          one-step upload (a draft Worker)
//   POST /accounts/:a/workers/scripts/:name/versions, deployments   `deploy` (versions API)
//   PUT|GET /accounts/:a/workers/scripts/:name/secrets           `secret put` / `secret list`
//   POST /accounts/:a/r2/buckets, GET …/r2/buckets[/:name]       `r2 bucket create`, `r2 bucket
//                                                                list`, the bucket check of `deploy`
//   POST|GET /accounts/:a/queues, GET /accounts/:a/queues/:id    `queues create`, `deploy`'s checks
//   POST|PUT /accounts/:a/queues/:id/consumers[/:c]              `deploy`: the Worker's queue consumer
//   GET|POST /accounts/:a/workers/scripts/:name/subdomain          `deploy`: its workers.dev route on
//                                                                or off (`workers_dev`, `preview_urls`)
//   …and the service, settings, schedules and analytics calls made on the way.
//
// Nothing is imitated where the real part runs here: each D1 database is a real D1 (SQLite
// in workerd, through Miniflare, persisted under `stateDir`), and a deployed version is the
// very bundle wrangler uploaded, run by workerd with the bindings named in the upload's
// metadata (D1, R2 buckets, plain-text vars, secrets, rate limits, queues, service bindings
// to another deployed Worker or its named entrypoint, compatibility date and flags). All
// the account's deployed Workers run in one Miniflare, one worker each, rebuilt when any
// of them is deployed. An R2 bucket is a real local R2 (Miniflare's, persisted under
// `stateDir`); a queue whose consumer is the deployed Worker delivers to it, as Miniflare's
// local queues do.
// Besides the plain-HTTP API for wrangler, an HTTPS "edge" (self-signed CA at
// `caCertPath`) answers https://api.cloudflare.com/client/v4/… with the same API and
// https://<script>.<subdomain>.workers.dev/… with the deployed Worker when its workers.dev
// route is on, so curl reaches both with `--connect-to ::127.0.0.1:<edgePort> --cacert
// <caCertPath>` and unchanged URLs.
//
// It refuses what Cloudflare refuses on these paths: a wrong token (10000), another
// account (9109), an unknown database (7404), bucket (10006) or Worker (10007, which makes
// `secret put` create a draft Worker, as it does on Cloudflare), a duplicate database name
// (7502) or bucket name (10004), a binding to a bucket that does not exist, a service
// binding to a Worker the account does not have (10143), and two bindings of one name,
// such as a var and a secret (10053). It keeps no analytics and runs one version at 100%
// (no gradual deployments).
import { createServer } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { Miniflare, Headers as MiniflareHeaders } from "miniflare";

const API_PREFIX = "/client/v4";

/**
 * What a route handler is given of a request (`params`: the pattern's named groups).
 * @typedef {{ url: URL, params: Record<string, string>, body: Buffer, headers: import("node:http").IncomingHttpHeaders }} RouteRequest
 */
/**
 * A binding of an uploaded version: wrangler's metadata as JSON, a name, a type and that type's fields.
 * @typedef {Record<string, any> & { name: string, type: string }} Binding
 */
/** @typedef {{ name: string, type: string, contents: Uint8Array }} UploadedModule */
/** @typedef {{ metadata: any, modules: UploadedModule[] }} Upload */
/** @typedef {{ id: string, number: number, created_on: string, metadata: any, modules: UploadedModule[], bindings: Binding[], source: string }} Version */
/**
 * A Worker of the account: its versions, the active one, its deployments and settings.
 * @typedef {{ versions: Map<string, Version>, active: string | null, deployments: object[], schedules: object[], workersDev: { enabled: boolean, previews_enabled: boolean }, settings?: Record<string, unknown> }} Script
 */
/** @typedef {{ consumer_id: string, type: string, script: string, settings: any, created_on: string }} Consumer */
/** @typedef {{ queue_id: string, queue_name: string, created_on: string, modified_on: string, producers: unknown[], consumers: Consumer[] }} Queue */
/** @typedef {{ uuid: string, name: string, created_at: string, location: string | null, read_replication: { mode: string }, num_tables?: number, file_size?: number }} D1Record */
/** @typedef {{ name: string, creation_date: string, location: string, storage_class: string }} Bucket */

class CloudflareError extends Error {
  /**
   * @param {number} status
   * @param {number} code
   * @param {string} message
   */
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * @param {unknown} result
 * @param {Record<string, unknown>} [extra]
 */
function envelope(result, extra = {}) {
  return { success: true, errors: [], messages: [], result, ...extra };
}

/**
 * @param {import("node:http").IncomingMessage} request
 * @returns {Promise<Buffer>}
 */
function readBody(request) {
  return new Promise((resolve, reject) => {
    /** @type {Buffer[]} */
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks)));
    request.on("error", reject);
  });
}

/**
 * @param {Buffer} buffer
 * @returns {any}
 */
function jsonBody(buffer) {
  try {
    return JSON.parse(buffer.toString("utf8") || "{}");
  } catch {
    throw new CloudflareError(400, 10001, "the request body is not JSON");
  }
}

/**
 * A self-signed certificate (openssl, as Debian ships it) for the two host names the
 * sandbox's edge answers: api.cloudflare.com and *.<subdomain>.workers.dev.
 * @param {string} dir
 * @param {string} subdomain
 */
function makeCertificate(dir, subdomain) {
  const key = join(dir, "edge.key");
  const cert = join(dir, "edge.pem");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "2",
      "-keyout",
      key,
      "-out",
      cert,
      "-subj",
      "/CN=api.cloudflare.com",
      "-addext",
      `subjectAltName=DNS:api.cloudflare.com,DNS:*.${subdomain}.workers.dev`,
    ],
    { stdio: "ignore" },
  );
  return { key, cert };
}

/**
 * Starts the API (plain HTTP, for wrangler) and the HTTPS edge, each on a free loopback
 * port. Only `token` is accepted as the API token, and only `accountId` as the account.
 * `log(line)` receives one line per request. Returns { baseUrl, edgePort, caCertPath,
 * accountId, token, subdomain, requests, databases, scripts, queues, close() };
 * `requests`, `databases`, `scripts` and `queues` are the live records, for checks.
 * @param {{ stateDir: string, token: string, accountId: string, subdomain?: string, log?: (line: string) => void }} options
 */
export async function startCloudflareApi({ stateDir, token, accountId, subdomain = "sandbox", log = () => {} }) {
  mkdirSync(stateDir, { recursive: true });
  const d1Persist = join(stateDir, "d1");
  const r2Persist = join(stateDir, "r2");
  /** @type {Map<string, Bucket>} R2 bucket name → the bucket as the R2 API describes it. */
  const buckets = new Map();
  const certificate = makeCertificate(stateDir, subdomain);
  const account = { id: accountId, name: "Sandbox account" };
  /** @type {Map<string, D1Record>} uuid → database record, as the D1 API describes it. */
  const databases = new Map();
  /** @type {Map<string, Script>} script name → the Worker */
  const scripts = new Map();
  /** @type {Map<string, Queue>} queue name → the queue */
  const queues = new Map();
  /** @type {{ method: string | undefined, path: string, status: number }[]} */
  const requests = [];

  // One Miniflare holds every D1 database for the query endpoint; it is rebuilt with the
  // new binding list when a database is created. The deployed Worker runs in its own
  // Miniflare on the same persistence directory (as `wrangler d1 execute --local` and
  // `wrangler dev` share .wrangler/state), so both see the same SQLite files.
  /** @type {Miniflare | null} */
  let d1Host = null;
  let d1HostDatabases = 0;
  /** @param {string} uuid */
  async function d1(uuid) {
    const bindings = Object.fromEntries([...databases.keys()].map((id, i) => [`DB_${i}`, id]));
    if (d1HostDatabases !== databases.size) {
      const options = { modules: true, script: "export default { fetch() { return new Response(null, { status: 404 }); } }", d1Persist, d1Databases: bindings };
      if (d1Host) await d1Host.setOptions(options);
      else d1Host = new Miniflare(options);
      d1HostDatabases = databases.size;
    }
    const binding = /** @type {[string, string]} */ (Object.entries(bindings).find(([, id]) => id === uuid))[0];
    return /** @type {Miniflare} */ (d1Host).getD1Database(binding);
  }

  /** @param {string} uuid */
  function database(uuid) {
    const db = databases.get(uuid);
    if (!db) throw new CloudflareError(404, 7404, `The database ${uuid} could not be found`);
    return db;
  }

  /** @param {string} name */
  function script(name) {
    const found = scripts.get(name);
    if (!found) throw new CloudflareError(404, 10007, `This Worker (${name}) does not exist on your account.`);
    return found;
  }

  /**
   * A handler of workerd's stdout and stderr: each line to `log`, after `prefix`.
   * @param {string} prefix
   * @returns {(stdout: import("node:stream").Readable, stderr: import("node:stream").Readable) => void}
   */
  const logLines = (prefix) => (stdout, stderr) => {
    for (const stream of [stdout, stderr]) {
      createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY }).on("line", (line) => log(`${prefix} ${line}`));
    }
  };

  /** @type {{ method: string, pattern: RegExp, handler: (request: RouteRequest) => unknown }[]} */
  const routes = [];
  /**
   * @param {string} method
   * @param {string} pattern
   * @param {(request: RouteRequest) => unknown} handler
   */
  const route = (method, pattern, handler) => routes.push({ method, pattern: new RegExp(`^${pattern}$`), handler });
  const ACC = `/accounts/(?<account>[0-9a-f]{32})`;
  /**
   * A named group of the route's pattern, which matched (so it is there).
   * @param {Record<string, string>} params
   * @param {string} name
   */
  const param = (params, name) => /** @type {string} */ (params[name]);

  // Queues: created by `wrangler queues create`, checked by `wrangler deploy` (every queue
  // the configuration names must exist, 11000 otherwise), which then registers the Worker
  // as a queue's consumer.
  /** @param {string} id */
  function queueById(id) {
    const found = [...queues.values()].find((q) => q.queue_id === id);
    if (!found) throw new CloudflareError(404, 11000, `Queue ${id} does not exist`);
    return found;
  }
  route("POST", `${ACC}/queues`, ({ body }) => {
    const { queue_name: name } = jsonBody(body);
    if (typeof name !== "string" || !/^[a-z0-9][a-z0-9-]{0,62}$/.test(name)) throw new CloudflareError(400, 11003, "The queue name is invalid");
    if (queues.has(name)) throw new CloudflareError(409, 11009, `A queue named ${name} already exists`);
    const now = new Date().toISOString();
    /** @type {Queue} */
    const queue = { queue_id: randomUUID().replaceAll("-", ""), queue_name: name, created_on: now, modified_on: now, producers: [], consumers: [] };
    queues.set(name, queue);
    return envelope(queue);
  });
  route("GET", `${ACC}/queues`, ({ url }) => {
    const names = url.searchParams.getAll("name");
    const list = [...queues.values()].filter((q) => names.length === 0 || names.includes(q.queue_name));
    return envelope(list, { result_info: { page: 1, per_page: 100, count: list.length, total_count: list.length, total_pages: 1 } });
  });
  route("GET", `${ACC}/queues/(?<queue>[0-9a-f]{32})`, ({ params }) => envelope(queueById(param(params, "queue"))));
  route("POST", `${ACC}/queues/(?<queue>[0-9a-f]{32})/consumers`, async ({ params, body }) => {
    const queue = queueById(param(params, "queue"));
    const { type, script_name: scriptName, settings } = jsonBody(body);
    if (type !== "worker" || typeof scriptName !== "string") throw new CloudflareError(400, 11004, "a consumer needs type worker and script_name");
    if (queue.consumers.length > 0) throw new CloudflareError(400, 11005, `Queue ${queue.queue_name} already has a consumer`);
    const consumer = {
      consumer_id: randomUUID().replaceAll("-", ""),
      type,
      script: scriptName,
      settings: settings ?? {},
      created_on: new Date().toISOString(),
    };
    queue.consumers.push(consumer);
    if (scripts.get(scriptName)?.active) await rebuildRuntime();
    return envelope(consumer);
  });
  route("PUT", `${ACC}/queues/(?<queue>[0-9a-f]{32})/consumers/(?<consumer>[0-9a-f]{32})`, async ({ params, body }) => {
    const consumer = queueById(param(params, "queue")).consumers.find((c) => c.consumer_id === params.consumer);
    if (!consumer) throw new CloudflareError(404, 11006, `Consumer ${params.consumer} does not exist`);
    consumer.settings = jsonBody(body).settings ?? consumer.settings;
    if (scripts.get(consumer.script)?.active) await rebuildRuntime();
    return envelope(consumer);
  });

  // --- identity -------------------------------------------------------------------------
  route("GET", "/user/tokens/verify", () => envelope({ id: "sandbox-token", status: "active" }));
  route("GET", "/user", () => envelope({ id: "sandbox-user", email: "deployer@example.com" }));
  route("GET", "/accounts", () => envelope([account], { result_info: { page: 1, per_page: 20, count: 1, total_count: 1 } }));
  route("GET", "/memberships", () => envelope([{ id: "m1", account, status: "accepted", permissions: {} }]));
  route("GET", `${ACC}/tokens/verify`, () => envelope({ id: "sandbox-token", status: "active" }));

  // Analytics (`d1 info` asks for query counts): the sandbox keeps none, so no rows.
  route("POST", "/graphql", () => ({ data: { viewer: { accounts: [{ d1AnalyticsAdaptiveGroups: [] }] } }, errors: null }));

  // --- D1 ---------------------------------------------------------------------------------
  /** @param {D1Record} db */
  function describe(db) {
    return {
      uuid: db.uuid,
      name: db.name,
      version: "production",
      created_at: db.created_at,
      num_tables: db.num_tables ?? 0,
      file_size: db.file_size ?? 0,
      running_in_region: "WEUR",
      read_replication: db.read_replication,
    };
  }
  route("POST", `${ACC}/d1/database`, async ({ body }) => {
    const { name, primary_location_hint } = jsonBody(body);
    if (typeof name !== "string" || !/^[a-z0-9][a-z0-9-]{0,63}$/.test(name)) throw new CloudflareError(400, 7400, "The database name is invalid");
    if ([...databases.values()].some((db) => db.name === name)) throw new CloudflareError(400, 7502, `A database with that name already exists`);
    /** @type {D1Record} */
    const db = {
      uuid: randomUUID(),
      name,
      created_at: new Date().toISOString(),
      location: primary_location_hint ?? null,
      read_replication: { mode: "disabled" },
    };
    databases.set(db.uuid, db);
    await d1(db.uuid);
    return envelope(describe(db));
  });
  // --- R2 buckets ------------------------------------------------------------------------
  /** @param {string} name */
  function bucket(name) {
    const found = buckets.get(name);
    if (!found) throw new CloudflareError(404, 10006, "The specified bucket does not exist.");
    return found;
  }
  route("POST", `${ACC}/r2/buckets`, ({ body }) => {
    const { name, locationHint, storageClass } = jsonBody(body);
    if (typeof name !== "string" || !/^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/.test(name)) throw new CloudflareError(400, 10005, "The bucket name is not valid.");
    if (buckets.has(name)) throw new CloudflareError(409, 10004, "The bucket you tried to create already exists, and you own it.");
    const created = { name, creation_date: new Date().toISOString(), location: locationHint ?? "WEUR", storage_class: storageClass ?? "Standard" };
    buckets.set(name, created);
    return envelope(created);
  });
  route("GET", `${ACC}/r2/buckets`, () => envelope({ buckets: [...buckets.values()] }));
  route("GET", `${ACC}/r2/buckets/(?<bucket>[a-z0-9-]+)`, ({ params }) => envelope(bucket(param(params, "bucket"))));

  route("GET", `${ACC}/d1/database`, ({ url }) => {
    const name = url.searchParams.get("name");
    const list = [...databases.values()].filter((db) => name === null || db.name.includes(name)).map(describe);
    const page = Number(url.searchParams.get("page") ?? 1);
    const perPage = Number(url.searchParams.get("per_page") ?? 1000);
    const slice = list.slice((page - 1) * perPage, page * perPage);
    return envelope(slice, { result_info: { page, per_page: perPage, count: slice.length, total_count: list.length } });
  });
  route("GET", `${ACC}/d1/database/(?<uuid>[0-9a-f-]{36})`, async ({ params }) => {
    const db = database(param(params, "uuid"));
    const tables = await (await d1(db.uuid)).prepare("SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table'").first();
    return envelope({ ...describe(db), num_tables: tables?.n });
  });
  for (const method of ["PUT", "PATCH"]) {
    route(method, `${ACC}/d1/database/(?<uuid>[0-9a-f-]{36})`, ({ params, body }) => {
      const db = database(param(params, "uuid"));
      const update = jsonBody(body);
      const mode = update.read_replication?.mode;
      if (mode !== "auto" && mode !== "disabled") throw new CloudflareError(400, 7400, 'read_replication.mode must be "auto" or "disabled"');
      db.read_replication = { mode };
      return envelope(describe(db));
    });
  }
  route("POST", `${ACC}/d1/database/(?<uuid>[0-9a-f-]{36})/query`, async ({ params, body }) => {
    const db = database(param(params, "uuid"));
    const { sql, params: bind = [] } = jsonBody(body);
    if (typeof sql !== "string" || sql.trim() === "") throw new CloudflareError(400, 7400, "sql is required");
    const started = performance.now();
    let result;
    try {
      // A migration arrives as one multi-statement string. Miniflare's D1 runs it all and
      // answers with the last statement's rows; D1 answers one result per statement, but
      // wrangler only checks that each succeeded, and its one-statement calls (`--command`,
      // token.mjs) get the same single result from both.
      result = await (await d1(db.uuid))
        .prepare(sql)
        .bind(...bind)
        .all();
    } catch (caught) {
      const error = /** @type {{ message?: string, cause?: { message?: string } } | undefined} */ (caught);
      throw new CloudflareError(400, 7500, `${String(error?.cause?.message ?? error?.message ?? error)}: SQLITE_ERROR`);
    }
    return envelope([{ results: result.results ?? [], success: true, meta: { ...result.meta, duration: performance.now() - started } }]);
  });

  // --- Workers ----------------------------------------------------------------------------
  // A script upload: the multipart form wrangler builds (createWorkerUploadForm): a
  // `metadata` JSON part (main_module, bindings, compatibility date/flags, keep_bindings)
  // and one part per module, typed by its content type.
  /** @type {Record<string, string | undefined>} */
  const MODULE_TYPES = {
    "application/javascript+module": "ESModule",
    "application/javascript": "CommonJS",
    "text/plain": "Text",
    "application/octet-stream": "Data",
    "application/wasm": "CompiledWasm",
  };
  /**
   * @param {import("node:http").IncomingHttpHeaders} headers
   * @param {Buffer} body
   * @returns {Promise<Upload>}
   */
  async function parseUpload(headers, body) {
    let form;
    try {
      form = await new Request("http://upload/", { method: "PUT", headers: { "content-type": headers["content-type"] ?? "" }, body }).formData();
    } catch {
      throw new CloudflareError(400, 10021, "the script upload is not multipart/form-data");
    }
    const metadataPart = form.get("metadata");
    if (metadataPart === null) throw new CloudflareError(400, 10021, "the upload has no metadata part");
    const metadata = jsonBody(Buffer.from(typeof metadataPart === "string" ? metadataPart : await metadataPart.text()));
    /** @type {UploadedModule[]} */
    const modules = [];
    for (const [field, value] of form.entries()) {
      if (field === "metadata" || typeof value === "string") continue;
      const contentType = (value.type || "").split(";")[0]?.trim() ?? "";
      if (contentType === "application/source-map") continue;
      const type = MODULE_TYPES[contentType];
      if (!type) throw new CloudflareError(400, 10021, `unsupported module type ${contentType} for ${field}`);
      const name = value.name || field;
      if (name.split("/").some((segment) => segment === ".." || segment === "")) throw new CloudflareError(400, 10021, `bad module name ${name}`);
      modules.push({ name, type, contents: new Uint8Array(await value.arrayBuffer()) });
    }
    if (!metadata.main_module || !modules.some((m) => m.name === metadata.main_module)) {
      throw new CloudflareError(400, 10021, "No such module: the upload lacks its main_module");
    }
    return { metadata, modules };
  }

  /**
   * The bindings of an uploaded version of `name`; `inherit` ones come from the active version.
   * @param {string} name
   * @param {Script} found
   * @param {any} metadata
   * @returns {Binding[]}
   */
  function resolveBindings(name, found, metadata) {
    const previous = found.active ? activeVersion(found).bindings : [];
    const keep = new Set(metadata.keep_bindings ?? []);
    /** @type {Binding[]} */
    const bindings = [];
    for (const binding of metadata.bindings ?? []) {
      if (binding.type !== "inherit") {
        bindings.push(binding);
        continue;
      }
      const inherited = previous.find((b) => b.name === binding.name);
      if (!inherited) throw new CloudflareError(400, 10021, `binding ${binding.name} cannot be inherited: the active version has none`);
      bindings.push(inherited);
    }
    // Secrets outlive uploads (a deploy never drops them; wrangler sends none), and
    // keep_bindings keeps other types, e.g. vars for `wrangler deploy --keep-vars`.
    for (const kept of previous) {
      if (kept.type !== "secret_text" && !keep.has(kept.type)) continue;
      if (kept.type === "secret_text" && bindings.some((b) => b.name === kept.name && b.type === "secret_text")) continue;
      bindings.push(kept);
    }
    const names = bindings.map((b) => b.name);
    const duplicate = names.find((n, i) => names.indexOf(n) !== i);
    // Cloudflare refuses two bindings of one name, e.g. a var and a secret (code 10053).
    if (duplicate) throw new CloudflareError(400, 10053, `Binding name '${duplicate}' already in use`);
    for (const binding of bindings) {
      if (binding.type === "d1") database(binding.id);
      else if (binding.type === "r2_bucket") {
        if (!buckets.has(binding.bucket_name)) throw new CloudflareError(400, 10085, `R2 bucket '${binding.bucket_name}' not found: create it first`);
      } else if (binding.type === "queue") {
        if (!queues.has(binding.queue_name)) throw new CloudflareError(400, 11000, `Queue ${binding.queue_name} does not exist`);
      } else if (binding.type === "service") {
        // A service binding names a Worker the account has deployed (or the Worker itself);
        // Cloudflare refuses the upload otherwise, with this code and wording (as a
        // failed deploy printed it in 2026, github.com/heroui-inc/heroui-mcp/pull/75;
        // earlier it said "Could not resolve service binding …", also code 10143).
        if (typeof binding.service !== "string") throw new CloudflareError(400, 10021, `service binding ${binding.name} names no service`);
        if (binding.service !== name && !scripts.get(binding.service)?.active) {
          throw new CloudflareError(
            400,
            10143,
            `Service binding '${binding.name}' references Worker '${binding.service}' which was not found. Verify the Worker exists in your account and that the service name in your configuration is correct.`,
          );
        }
      } else if (!["plain_text", "json", "secret_text", "ratelimit"].includes(binding.type)) {
        throw new CloudflareError(400, 10021, `binding type ${binding.type} is not supported here`);
      }
    }
    return bindings;
  }

  /**
   * @param {string} name
   * @param {Upload} upload
   * @param {import("node:http").IncomingHttpHeaders} headers
   */
  function createVersion(name, upload, headers) {
    // A new Worker's workers.dev route is on until `deploy` turns it off (`workers_dev = false`: the subdomain route below).
    /** @type {Script} */
    const found = scripts.get(name) ?? {
      versions: new Map(),
      active: null,
      deployments: [],
      schedules: [],
      workersDev: { enabled: true, previews_enabled: true },
    };
    /** @type {Version} */
    const version = {
      id: randomUUID(),
      number: found.versions.size + 1,
      created_on: new Date().toISOString(),
      metadata: upload.metadata,
      modules: upload.modules,
      bindings: resolveBindings(name, found, upload.metadata),
      // Cloudflare records what made the change; wrangler is told apart by its User-Agent.
      source: /^wrangler\//.test(headers["user-agent"] ?? "") ? "wrangler" : "api",
    };
    found.versions.set(version.id, version);
    scripts.set(name, found);
    return { found, version };
  }

  /** @param {Version} version */
  function describeVersion(version) {
    return {
      id: version.id,
      number: version.number,
      metadata: { created_on: version.created_on, modified_on: version.created_on, source: version.source, author_email: "deployer@example.com" },
      resources: {
        script: { etag: version.id.replaceAll("-", ""), handlers: ["fetch", "scheduled"] },
        script_runtime: { compatibility_date: version.metadata.compatibility_date, compatibility_flags: version.metadata.compatibility_flags ?? [] },
        bindings: version.bindings.map((b) => (b.type === "secret_text" ? { name: b.name, type: b.type } : b)),
      },
      startup_time_ms: 1,
    };
  }

  /**
   * The version's modules as files under stateDir (Miniflare reads them from there), the main module first.
   * @param {string} name
   * @param {Version} version
   */
  function moduleFiles(name, version) {
    const dir = join(stateDir, "scripts", name, version.id);
    const modules = version.modules.map((module) => {
      const path = join(dir, module.name);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, module.contents);
      return { type: module.type, path, contents: module.contents };
    });
    // Miniflare takes the first module as the entry point.
    const main = modules.findIndex((m) => m.path === join(dir, version.metadata.main_module));
    modules.unshift(...modules.splice(main, 1));
    return { dir, modules };
  }

  /**
   * The active version of a Worker that has one.
   * @param {Script} found
   * @returns {Version}
   */
  function activeVersion(found) {
    return /** @type {Version} */ (found.versions.get(/** @type {string} */ (found.active)));
  }

  /**
   * One deployed Worker as a worker of the account's Miniflare: its active version's bundle and bindings.
   * @param {string} name
   * @param {Script} found
   */
  function workerOptions(name, found) {
    const version = activeVersion(found);
    const { dir, modules } = moduleFiles(name, version);
    /** @type {Record<string, any>} */
    const bindings = {};
    /** @type {Record<string, string>} */
    const d1Databases = {};
    /** @type {Record<string, string>} */
    const r2Buckets = {};
    /** @type {Record<string, { simple: any }>} */
    const ratelimits = {};
    /** @type {Record<string, { queueName: string }>} */
    const queueProducers = {};
    /** @type {Record<string, { name: string, entrypoint?: string }>} */
    const serviceBindings = {};
    for (const binding of version.bindings) {
      if (binding.type === "plain_text" || binding.type === "secret_text") bindings[binding.name] = binding.text;
      else if (binding.type === "json") bindings[binding.name] = binding.json;
      else if (binding.type === "d1") d1Databases[binding.name] = binding.id;
      else if (binding.type === "r2_bucket") r2Buckets[binding.name] = binding.bucket_name;
      else if (binding.type === "ratelimit") ratelimits[binding.name] = { simple: binding.simple };
      else if (binding.type === "queue") queueProducers[binding.name] = { queueName: binding.queue_name };
      else if (binding.type === "service")
        serviceBindings[binding.name] = { name: binding.service, ...(binding.entrypoint && { entrypoint: binding.entrypoint }) };
    }
    // The queues this Worker consumes (registered by `deploy` after the upload: the
    // runtime is rebuilt then, see the consumers route).
    const queueConsumers = Object.fromEntries(
      [...queues.values()]
        .filter((q) => q.consumers.some((c) => c.script === name))
        .map((q) => {
          const { settings } = /** @type {Consumer} */ (q.consumers.find((c) => c.script === name));
          return [
            q.queue_name,
            {
              maxBatchSize: settings.batch_size,
              maxBatchTimeout: settings.max_wait_time_ms === undefined ? undefined : settings.max_wait_time_ms / 1000,
              maxRetries: settings.max_retries,
            },
          ];
        }),
    );
    return {
      name,
      modules,
      modulesRoot: dir,
      compatibilityDate: version.metadata.compatibility_date,
      compatibilityFlags: version.metadata.compatibility_flags ?? [],
      bindings,
      d1Databases,
      r2Buckets,
      ratelimits,
      queueProducers,
      queueConsumers,
      serviceBindings,
    };
  }

  // Every deployed Worker of the account runs in one Miniflare, each as a worker of its own
  // (as on Cloudflare, a service binding reaches the other Worker's active version: its
  // default export, or the named entrypoint class). It is rebuilt whenever any of them is
  // deployed or gains a queue, so a binding always reaches what is deployed now.
  /** @type {Miniflare | null} */
  let runtime = null;
  async function rebuildRuntime() {
    const workers = [...scripts.entries()].filter(([, found]) => found.active).map(([name, found]) => workerOptions(name, found));
    if (workers.length === 0) return;
    // What the Workers print (and workerd's own complaints, e.g. a name it cannot resolve
    // offline) goes to the log, as a Worker's output goes to its logs on Cloudflare.
    const options = { d1Persist, r2Persist, workers, handleRuntimeStdio: logLines("[workerd]") };
    if (runtime) await runtime.setOptions(options);
    else runtime = new Miniflare(options);
    await runtime.ready;
  }

  /**
   * Makes `version` the active one of its Worker `found`: the account's runtime rebuilt with it.
   * @param {Script} found
   * @param {Version} version
   */
  async function deploy(found, version) {
    const previous = found.active;
    found.active = version.id;
    try {
      await rebuildRuntime();
    } catch (error) {
      found.active = previous;
      throw error;
    }
    const deployment = {
      id: randomUUID(),
      source: version.source,
      strategy: "percentage",
      author_email: "deployer@example.com",
      created_on: new Date().toISOString(),
      annotations: {},
      versions: [{ version_id: version.id, percentage: 100 }],
    };
    found.deployments.unshift(deployment);
    return deployment;
  }

  const SCRIPT = `${ACC}/workers/scripts/(?<name>[a-z0-9-]+)`;
  // The one-step upload: a new version, deployed at once (also how `secret put` makes a draft).
  route("PUT", SCRIPT, async ({ params, headers, body }) => {
    const { found, version } = createVersion(param(params, "name"), await parseUpload(headers, body), headers);
    await deploy(found, version);
    return envelope({
      id: params.name,
      etag: version.id.replaceAll("-", ""),
      created_on: version.created_on,
      modified_on: version.created_on,
      compatibility_date: version.metadata.compatibility_date,
      usage_model: "standard",
      has_modules: true,
      startup_time_ms: 1,
    });
  });
  // The versions API `wrangler deploy` uses once the Worker exists: upload, then deploy.
  route("POST", `${SCRIPT}/versions`, async ({ params, headers, body }) => {
    script(param(params, "name"));
    const { version } = createVersion(param(params, "name"), await parseUpload(headers, body), headers);
    return envelope(describeVersion(version));
  });
  route("GET", `${SCRIPT}/versions/(?<version>[0-9a-f-]{36})`, ({ params }) => {
    const version = script(param(params, "name")).versions.get(param(params, "version"));
    if (!version) throw new CloudflareError(404, 10222, "version not found");
    return envelope(describeVersion(version));
  });
  route("GET", `${SCRIPT}/deployments`, ({ params }) => envelope({ deployments: script(param(params, "name")).deployments }));
  route("POST", `${SCRIPT}/deployments`, async ({ params, body }) => {
    const found = script(param(params, "name"));
    const { versions } = jsonBody(body);
    if (!Array.isArray(versions) || versions.length !== 1 || versions[0].percentage !== 100) {
      throw new CloudflareError(400, 10021, "this sandbox deploys one version at 100%");
    }
    const version = found.versions.get(versions[0].version_id);
    if (!version) throw new CloudflareError(404, 10222, "version not found");
    return envelope(await deploy(found, version));
  });
  // The active version's bindings (secrets without their text), as Cloudflare lists them:
  // wrangler deploy reads them to decide whether an R2 binding is the one already there.
  route("GET", `${SCRIPT}/settings`, ({ params }) => {
    const found = script(param(params, "name"));
    const active = found.active ? found.versions.get(found.active) : null;
    const bindings = (active?.bindings ?? []).map((b) => (b.type === "secret_text" ? { name: b.name, type: b.type } : b));
    return envelope({ logpush: false, tail_consumers: [], observability: { enabled: false }, bindings, ...found.settings });
  });
  route("PATCH", `${SCRIPT}/script-settings`, ({ params, body }) => {
    const found = script(param(params, "name"));
    found.settings = { ...found.settings, ...jsonBody(body) };
    return envelope(found.settings);
  });
  route("GET", `${ACC}/workers/services/(?<name>[a-z0-9-]+)`, ({ params }) => {
    const found = scripts.get(param(params, "name"));
    if (!found) throw new CloudflareError(404, 10090, "This Worker does not exist on your account.");
    const active = activeVersion(found);
    return envelope({
      id: params.name,
      default_environment: {
        environment: "production",
        created_on: active.created_on,
        modified_on: active.created_on,
        script: { id: params.name, tag: params.name, etag: active.id.replaceAll("-", ""), last_deployed_from: active.source },
      },
    });
  });
  // A secret is a binding of the active version: setting one deploys a new version.
  route("PUT", `${SCRIPT}/secrets`, async ({ params, body, headers }) => {
    const found = script(param(params, "name"));
    const { name, text, type } = jsonBody(body);
    if (type !== "secret_text" || typeof name !== "string" || typeof text !== "string") {
      throw new CloudflareError(400, 10021, "a secret needs name, text and type secret_text");
    }
    const active = activeVersion(found);
    const clash = active.bindings.find((b) => b.name === name && b.type !== "secret_text");
    if (clash) throw new CloudflareError(400, 10053, `Binding name '${name}' already in use`);
    const metadata = {
      ...active.metadata,
      bindings: [...active.bindings.filter((b) => b.name !== name), { name, type: "secret_text", text }],
      keep_bindings: [],
    };
    const { version } = createVersion(param(params, "name"), { metadata, modules: active.modules }, headers);
    await deploy(found, version);
    return envelope({ name, type: "secret_text" });
  });
  route("GET", `${SCRIPT}/secrets`, ({ params }) => {
    const found = script(param(params, "name"));
    const active = activeVersion(found);
    return envelope(active.bindings.filter((b) => b.type === "secret_text").map(({ name, type }) => ({ name, type })));
  });
  route("PUT", `${SCRIPT}/schedules`, ({ params, body }) => {
    const found = script(param(params, "name"));
    const now = new Date().toISOString();
    found.schedules = jsonBody(body).map((/** @type {{ cron: string }} */ { cron }) => ({ cron, created_on: now, modified_on: now }));
    return envelope({ schedules: found.schedules });
  });
  route("GET", `${ACC}/workers/subdomain`, () => envelope({ subdomain }));
  // A Worker's workers.dev route (and its preview URLs): `wrangler deploy` reads it, then
  // posts what the config asks (`workers_dev`, `preview_urls`; both on when unset and there
  // are no routes). The edge serves only a Worker whose route is on.
  route("GET", `${SCRIPT}/subdomain`, ({ params }) => envelope(script(param(params, "name")).workersDev));
  route("POST", `${SCRIPT}/subdomain`, ({ params, body }) => {
    const found = script(param(params, "name"));
    const { enabled, previews_enabled: previews } = jsonBody(body);
    if (typeof enabled !== "boolean" || (previews !== undefined && typeof previews !== "boolean")) {
      throw new CloudflareError(400, 10021, "enabled (and previews_enabled) must be booleans");
    }
    found.workersDev = { enabled, previews_enabled: previews ?? enabled };
    return envelope(found.workersDev);
  });

  /**
   * @param {import("node:http").IncomingMessage} request
   * @param {import("node:http").ServerResponse} response
   * @param {URL} url
   * @param {Buffer} body
   */
  async function answerApi(request, response, url, body) {
    const path = url.pathname.startsWith(API_PREFIX) ? url.pathname.slice(API_PREFIX.length) : null;
    let status = 200;
    /** @type {unknown} */
    let payload;
    try {
      if (path === null) throw new CloudflareError(404, 7000, "No route for that URI");
      if (request.headers.authorization !== `Bearer ${token}`) throw new CloudflareError(403, 10000, "Authentication error");
      const found = routes.find((r) => r.method === request.method && r.pattern.test(path));
      if (!found) throw new CloudflareError(404, 7000, `No route for that URI: ${request.method} ${path}`);
      const params = found.pattern.exec(path)?.groups ?? {};
      if (params.account && params.account !== account.id) throw new CloudflareError(403, 9109, "Unauthorized to access requested resource");
      payload = await found.handler({ url, params, body, headers: request.headers });
    } catch (thrown) {
      if (!(thrown instanceof CloudflareError))
        log(`[cloudflare-api] ${request.method} ${url.pathname} failed: ${/** @type {Error | undefined} */ (thrown)?.stack ?? thrown}`);
      const error = thrown instanceof CloudflareError ? thrown : new CloudflareError(500, 10013, "workers.api.error.unknown");
      status = error.status;
      payload = { success: false, errors: [{ code: error.code, message: error.message }], messages: [], result: null };
    }
    requests.push({ method: request.method, path: url.pathname + url.search, status });
    log(`[cloudflare-api] ${request.method} ${url.pathname}${url.search} -> ${status}`);
    response.writeHead(status, { "content-type": "application/json" });
    response.end(JSON.stringify(payload));
  }

  /**
   * https://<script>.<subdomain>.workers.dev/…: the deployed script answers, as on Cloudflare.
   * @param {import("node:http").IncomingMessage} request
   * @param {import("node:http").ServerResponse} response
   * @param {URL} url
   * @param {Buffer} body
   */
  async function answerWorker(request, response, url, body) {
    const name = url.hostname.slice(0, -`.${subdomain}.workers.dev`.length);
    const found = scripts.get(name);
    if (!found?.active || !found.workersDev.enabled) {
      response.writeHead(404, { "content-type": "text/plain" });
      response.end(
        found?.active ? `There is nothing here yet: the Worker ${name} has no workers.dev route.` : `There is nothing here yet: no Worker ${name} is deployed.`,
      );
      return;
    }
    // Miniflare's own Headers (undici's), which its dispatchFetch takes.
    const headers = new MiniflareHeaders();
    for (const [key, value] of Object.entries(request.headers)) {
      if (!["connection", "keep-alive", "transfer-encoding", "host"].includes(key)) headers.set(key, Array.isArray(value) ? value.join(", ") : (value ?? ""));
    }
    headers.set("cf-connecting-ip", request.socket.remoteAddress?.replace(/^::ffff:/, "") ?? "127.0.0.1");
    // Miniflare's entry worker hands the request to the worker this header names.
    headers.set("MF-Route-Override", name);
    const answer = await /** @type {Miniflare} */ (runtime).dispatchFetch(url.href, {
      method: request.method,
      headers,
      body: ["GET", "HEAD"].includes(request.method ?? "") ? undefined : body,
      redirect: "manual",
    });
    const out = Buffer.from(await answer.arrayBuffer());
    /** @type {Record<string, string>} */
    const outHeaders = {};
    answer.headers.forEach((value, key) => {
      if (key !== "content-encoding" && key !== "transfer-encoding") outHeaders[key] = value;
    });
    outHeaders["content-length"] = String(out.length);
    log(`[edge] ${request.method} ${url.href} -> ${answer.status}`);
    response.writeHead(answer.status, outHeaders);
    response.end(request.method === "HEAD" ? undefined : out);
  }

  /**
   * @param {"http" | "https"} scheme
   * @returns {(request: import("node:http").IncomingMessage, response: import("node:http").ServerResponse) => Promise<void>}
   */
  const listener = (scheme) => async (request, response) => {
    try {
      const url = new URL(request.url ?? "/", `${scheme}://${request.headers.host ?? "localhost"}`);
      const body = await readBody(request);
      if (scheme === "https" && url.hostname.endsWith(`.${subdomain}.workers.dev`)) await answerWorker(request, response, url, body);
      else if (scheme === "http" || url.hostname === "api.cloudflare.com") await answerApi(request, response, url, body);
      else {
        response.writeHead(421, { "content-type": "text/plain" });
        response.end(`this sandbox does not serve ${url.hostname}`);
      }
    } catch (error) {
      log(`[edge] ${request.method} ${request.url} failed: ${/** @type {Error | undefined} */ (error)?.stack ?? error}`);
      if (!response.headersSent) response.writeHead(502, { "content-type": "text/plain" });
      response.end("bad gateway");
    }
  };
  // Wrangler talks to the API over plain HTTP (CLOUDFLARE_API_BASE_URL); everything else
  // (curl in the README) reaches "the internet" through the HTTPS edge: `curl --connect-to
  // ::127.0.0.1:<edgePort> --cacert <caCertPath>`.
  const server = createServer(listener("http"));
  const edge = createHttpsServer({ key: readFileSync(certificate.key), cert: readFileSync(certificate.cert) }, listener("https"));
  await new Promise((/** @type {(value?: undefined) => void} */ resolve) => server.listen(0, "127.0.0.1", resolve));
  await new Promise((/** @type {(value?: undefined) => void} */ resolve) => edge.listen(0, "127.0.0.1", resolve));
  const portOf = (/** @type {import("node:net").Server} */ listening) => /** @type {import("node:net").AddressInfo} */ (listening.address()).port;
  const baseUrl = `http://127.0.0.1:${portOf(server)}${API_PREFIX}`;

  return {
    baseUrl,
    edgePort: portOf(edge),
    caCertPath: certificate.cert,
    accountId,
    token,
    subdomain,
    requests,
    databases,
    buckets,
    scripts,
    queues,
    async close() {
      for (const listening of [server, edge]) {
        const closed = new Promise((resolve) => listening.close(resolve));
        listening.closeAllConnections();
        await closed;
      }
      await runtime?.dispose();
      await d1Host?.dispose();
    },
  };
}
