// The catalog's routes: extensions and repositories, read-only (the catalog changes only
// by migration).
import { CONDITIONAL_GET, errorResponses, listResponse, notModifiedResponse, resourceResponse } from "../../http/openapi";
import { pathParams, RepositoryParams } from "../../http/params";
import { defineRoute } from "../../http/route";
import { EXTENSION_EXAMPLE, REPOSITORY_DETAIL_EXAMPLE, REPOSITORY_EXAMPLE } from "./examples";
import { ExtensionListQuery, ExtensionListSchema, ExtensionSchema, RepositoryDetailSchema, RepositoryListQuery, RepositoryListSchema } from "./schemas";

const ExtensionParams = pathParams("extension", "Extension id or name, with or without the leading dot (`co.uk`, `.de`, `рф`).", "com");

export const listExtensions = defineRoute({
  operationId: "listExtensions",
  access: { scope: "read", narrow: "visible" },
  method: "get",
  path: "/extensions",
  tags: ["Extensions"],
  summary: "List extensions",
  description: "The extensions (TLDs) offered, in id order. Read-only: the catalog changes only by migration.",
  request: { query: ExtensionListQuery },
  responses: { 200: listResponse(ExtensionListSchema, "A page of extensions.", [EXTENSION_EXAMPLE]), ...errorResponses(400) },
});

export const getExtension = defineRoute({
  operationId: "getExtension",
  access: { scope: "read", narrow: "visible" },
  method: "get",
  path: "/extensions/{extension}",
  tags: ["Extensions"],
  summary: "Get an extension",
  description:
    "One extension (TLD) with its registration periods, grace periods, name server limits and features, by id or name; IDN extensions answer to either form." +
    CONDITIONAL_GET,
  request: { params: ExtensionParams },
  responses: { 200: resourceResponse(ExtensionSchema, "The extension.", EXTENSION_EXAMPLE), 304: notModifiedResponse, ...errorResponses(404) },
});

export const listRepositories = defineRoute({
  operationId: "listRepositories",
  access: { scope: "read", narrow: "visible" },
  method: "get",
  path: "/repositories",
  tags: ["Repositories"],
  summary: "List repositories",
  description: "The registries whose object stores domains live in, in id order. Read-only.",
  request: { query: RepositoryListQuery },
  responses: { 200: listResponse(RepositoryListSchema, "A page of repositories.", [REPOSITORY_EXAMPLE]), ...errorResponses(400) },
});

export const getRepository = defineRoute({
  operationId: "getRepository",
  access: { scope: "read", narrow: "visible" },
  method: "get",
  path: "/repositories/{repository}",
  tags: ["Repositories"],
  summary: "Get a repository",
  description:
    "One repository (the registry that holds the extensions' objects) by id, with the names it prices on its own (`premium_names`, each with its prices), the names it keeps from registration (`reserved_names`) and its `connector`: `builtin` (the service is the registry) or `epp` (the service is a registrar of the registry and speaks EPP to it; operators also see the greeting's objects and extensions and the sessions). A gateway out of reach is a connector `down`, never an error." +
    CONDITIONAL_GET,
  request: { params: RepositoryParams },
  responses: { 200: resourceResponse(RepositoryDetailSchema, "The repository.", REPOSITORY_DETAIL_EXAMPLE), 304: notModifiedResponse, ...errorResponses(404) },
});
