import { z } from "@hono/zod-openapi";

/** A path parameter, documented. */
export function pathParams<const N extends string>(name: N, description: string, example: string) {
  return z.object({ [name]: z.string().openapi({ param: { name, in: "path" }, description, example }) } as { [K in N]: z.ZodString });
}

/** `{repository}` in the catalog routes and in the repository sub-listings. */
export const RepositoryParams = pathParams("repository", "Repository id, e.g. `verisign`.", "verisign");

/** `{zone}` in the zone routes and in a zone's record listing. */
export const ZoneParams = pathParams("zone", "Zone id (`zon_…`) or name (`example.com`, a trailing dot allowed).", "example.com");

/** The repository a collection is listed within (`/repositories/{repository}/contacts`), for collectionRoutes' listWithin. */
export const InRepository = {
  path: "/repositories/{repository}" as const,
  params: RepositoryParams,
  operationId: "Repository",
  noun: "repository",
  tags: ["Repositories"],
};
