// A collection's standard operations, declared once: list (a keyset page), list within a
// parent (`/repositories/{repository}/contacts`), get (ETag, 304, and the RDAP view where
// there is one), create (201 with Location), update (JSON Merge Patch, If-Match) and delete
// (204), each through defineRoute with the request and response shapes of
// docs/conventions.md. A collection gives only what is its own: its path, schemas,
// examples, texts, and the access each operation needs (src/access/route-access.ts: every
// operation declares it, nothing is assumed). Its other operations (renew, rotate-secret
// …) it declares beside these with defineRoute.
import type { z } from "@hono/zod-openapi";
import type { RouteAccess } from "../access/route-access";
import {
  CONDITIONAL_GET,
  createdResponse,
  errorResponses,
  jsonBody,
  listResponse,
  mergePatchBody,
  noContentResponse,
  notModifiedResponse,
  resourceResponse,
} from "./openapi";
import { pathParams } from "./params";
import { withRdapErrors, withRdapView } from "./rdap";
import { defineRoute } from "./route";

export interface CollectionSpec<P extends string, K extends string, S extends z.ZodType> {
  /** Under /v1: `/contacts`. */
  path: P;
  /** The path parameter naming one member (`{contact}`), as the document shows it. */
  member: { param: K; description: string; example: string };
  tags: string[];
  /** `Contact`, `Contacts`: the operation ids listContacts, getContact, createContact … */
  operationIds: { one: string; many: string };
  /** `contact`, `contacts`: the default summaries ("Get a contact") and response descriptions ("The contact."). */
  noun: { one: string; many: string };
  /** The representation, and its example: what get, create and update answer unless an operation says otherwise. */
  schema: S;
  example: z.output<S>;
  /** Body fields create and update refuse as read-only (422 read_only_field rather than unknown_field). */
  readOnly?: readonly string[];
}

/** What every operation states: who may call it and what it does; and what it changes of the usual. */
interface Operation<E extends readonly number[]> {
  access: RouteAccess;
  description: string;
  /** Default: "List contacts", "Get a contact", "Create a contact" … */
  summary?: string;
  /** The problem statuses of the operation, besides those every operation has (401, 403, 429, 500, 503). */
  errors?: E;
}

/** A response described otherwise, or of another schema than the representation's (then with its own example). */
interface Answer<R extends z.ZodType> {
  schema?: R;
  description?: string;
  example?: z.output<R>;
}

/** The object a collection is listed within: `/repositories/{repository}`, `/zones/{zone}`. */
export interface Parent<PP extends string, PS extends z.ZodType> {
  path: PP;
  params: PS;
  /** `Repository`: listRepositoryContacts. */
  operationId: string;
  /** `repository`: "List the contacts a repository holds". */
  noun: string;
  tags: string[];
}

/** A list's page schema (listSchema in src/http/openapi.ts). */
type Page = z.ZodType<{ data: unknown[]; next_cursor: string | null }>;

/** A list's query and page: the example page holds `items`, by default the representation's example. */
interface Listing<Q extends z.ZodObject, L extends Page> {
  query: Q;
  page: L;
  items?: z.output<L>["data"];
  response?: { description: string };
}

const LIST_ERRORS = [400] as const;
const LIST_WITHIN_ERRORS = [400, 404] as const;
const GET_ERRORS = [404] as const;
const CREATE_ERRORS = [400, 409, 413, 415, 422] as const;
const UPDATE_ERRORS = [400, 404, 409, 412, 413, 415, 422] as const;
const DELETE_ERRORS = [404, 409, 412] as const;

const article = (noun: string) => (/^[aeiou]/i.test(noun) ? `an ${noun}` : `a ${noun}`);

export function collectionRoutes<const P extends string, const K extends string, S extends z.ZodType>(spec: CollectionSpec<P, K, S>) {
  const { one, many } = spec.noun;
  const params = pathParams(spec.member.param, spec.member.description, spec.member.example);
  const memberPath = `${spec.path}/{${spec.member.param}}` as `${P}/{${K}}`;
  const answer = <R extends z.ZodType>(given: Answer<R> | undefined, description: string) => {
    if (given?.schema && given.example === undefined) throw new Error(`${spec.path}: a response with a schema of its own needs its own example`);
    return {
      schema: (given?.schema ?? spec.schema) as unknown as R,
      description: given?.description ?? description,
      example: (given?.example ?? spec.example) as z.output<R>,
    };
  };
  const pageOf = <L extends Page>(op: Listing<z.ZodObject, L>) =>
    listResponse(op.page, op.response?.description ?? `A page of ${many}.`, op.items ?? [spec.example]);
  const read = <E extends readonly number[]>(op: Operation<E> & { conditional?: false }, response: Answer<z.ZodType> | undefined) => ({
    operationId: `get${spec.operationIds.one}`,
    access: op.access,
    method: "get" as const,
    path: memberPath,
    tags: spec.tags,
    summary: op.summary ?? `Get ${article(one)}`,
    description: op.conditional === false ? op.description : op.description + CONDITIONAL_GET,
    request: { params },
    ok: answer(response, `The ${one}.`),
    errors: (op.errors ?? GET_ERRORS) as unknown as E,
  });

  return {
    /** `{contact}`, for the collection's other operations on one member. */
    params,

    list<Q extends z.ZodObject, L extends Page, const E extends readonly number[] = typeof LIST_ERRORS>(op: Operation<E> & Listing<Q, L>) {
      return defineRoute({
        operationId: `list${spec.operationIds.many}`,
        access: op.access,
        method: "get",
        path: spec.path,
        tags: spec.tags,
        summary: op.summary ?? `List ${many}`,
        description: op.description,
        request: { query: op.query },
        responses: {
          200: pageOf(op),
          ...errorResponses(...((op.errors ?? LIST_ERRORS) as unknown as E)),
        },
      });
    },

    /** The collection's members that belong to one parent object (404 when the parent does not exist). */
    listWithin<
      const PP extends string,
      PS extends z.ZodObject,
      Q extends z.ZodObject,
      L extends Page,
      const E extends readonly number[] = typeof LIST_WITHIN_ERRORS,
    >(parent: Parent<PP, PS>, op: Operation<E> & Listing<Q, L>) {
      return defineRoute({
        operationId: `list${parent.operationId}${spec.operationIds.many}`,
        access: op.access,
        method: "get",
        path: `${parent.path}${spec.path}` as `${PP}${P}`,
        tags: parent.tags,
        summary: op.summary ?? `List the ${many} ${article(parent.noun)} holds`,
        description: op.description,
        request: { params: parent.params, query: op.query },
        responses: {
          200: pageOf(op),
          ...errorResponses(...((op.errors ?? LIST_WITHIN_ERRORS) as unknown as E)),
        },
      });
    },

    /** One member by its path parameter; 304 to `If-None-Match` unless `conditional: false` (the answer is live). */
    get<R extends z.ZodType = S, const E extends readonly number[] = typeof GET_ERRORS>(op: Operation<E> & { conditional?: false; response?: Answer<R> }) {
      const { ok, errors, ...route } = read(op, op.response);
      return defineRoute({
        ...route,
        responses: {
          200: resourceResponse(ok.schema as R, ok.description, ok.example as z.output<R>),
          ...(op.conditional === false ? {} : { 304: notModifiedResponse }),
          ...errorResponses(...errors),
        },
      });
    },

    /** A get whose member also has an RDAP view (RFC 9083), for `Accept: application/rdap+json`. */
    getWithRdap<V extends z.ZodType, R extends z.ZodType = S, const E extends readonly number[] = typeof GET_ERRORS>(
      op: Operation<E> & { rdap: { schema: V; example: z.output<V> }; response?: Answer<R> },
    ) {
      const { ok, errors, ...route } = read(op, op.response);
      return defineRoute({
        ...route,
        responses: {
          200: withRdapView(resourceResponse(ok.schema as R, ok.description, ok.example as z.output<R>), op.rdap.schema, op.rdap.example),
          304: notModifiedResponse,
          ...withRdapErrors(errorResponses(...errors)),
        },
      });
    },

    /** `accepted`: a 202 the create may also answer (a registration a connected registry left pending), of the 201's schema and headers. */
    create<C extends z.ZodType, R extends z.ZodType = S, const E extends readonly number[] = typeof CREATE_ERRORS>(
      op: Operation<E> & {
        body: C;
        example: z.input<C>;
        bodyDescription?: string;
        readOnly?: readonly string[];
        response?: Answer<R>;
        accepted?: { description: string; example: z.output<R> };
      },
    ) {
      const created = answer(op.response, `The ${one} was created.`);
      return defineRoute({
        operationId: `create${spec.operationIds.one}`,
        access: op.access,
        method: "post",
        path: spec.path,
        tags: spec.tags,
        summary: op.summary ?? `Create ${article(one)}`,
        description: op.description,
        readOnly: op.readOnly ?? spec.readOnly,
        request: { body: jsonBody(op.body, op.bodyDescription ?? `The new ${one}.`, op.example) },
        responses: {
          201: createdResponse(created.schema, created.description, created.example),
          ...(op.accepted ? { 202: createdResponse(created.schema, op.accepted.description, op.accepted.example) } : {}),
          ...errorResponses(...((op.errors ?? CREATE_ERRORS) as unknown as E)),
        },
      });
    },

    /** `accepted`: a 202 the update may also answer (a change a connected registry left pending), of the 200's schema. */
    update<B extends z.ZodType, R extends z.ZodType = S, const E extends readonly number[] = typeof UPDATE_ERRORS>(
      op: Operation<E> & {
        body: B;
        example: z.input<B>;
        readOnly?: readonly string[];
        response?: Answer<R>;
        accepted?: { description: string; example: z.output<R> };
      },
    ) {
      const updated = answer(op.response, `The updated ${one}.`);
      return defineRoute({
        operationId: `update${spec.operationIds.one}`,
        access: op.access,
        method: "patch",
        path: memberPath,
        tags: spec.tags,
        summary: op.summary ?? `Update ${article(one)}`,
        description: op.description,
        readOnly: op.readOnly ?? spec.readOnly,
        request: { params, body: mergePatchBody(op.body, "Fields to change.", op.example) },
        responses: {
          200: resourceResponse(updated.schema, updated.description, updated.example),
          ...(op.accepted ? { 202: resourceResponse(updated.schema, op.accepted.description, op.accepted.example) } : {}),
          ...errorResponses(...((op.errors ?? UPDATE_ERRORS) as unknown as E)),
        },
      });
    },

    /** `query`: the parameters a delete takes (a zone's `force`); none unless given. */
    delete<const E extends readonly number[] = typeof DELETE_ERRORS, Q extends z.ZodObject | undefined = undefined>(op: Operation<E> & { query?: Q }) {
      type Request = Q extends z.ZodObject ? { params: typeof params; query: Q } : { params: typeof params };
      return defineRoute({
        operationId: `delete${spec.operationIds.one}`,
        access: op.access,
        method: "delete",
        path: memberPath,
        tags: spec.tags,
        summary: op.summary ?? `Delete ${article(one)}`,
        description: op.description,
        request: (op.query ? { params, query: op.query } : { params }) as Request,
        responses: { 204: noContentResponse, ...errorResponses(...((op.errors ?? DELETE_ERRORS) as unknown as E)) },
      });
    },
  };
}
