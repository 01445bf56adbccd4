// docs/model.md#contacts, the rules that depend on domains: a contact's computed status, deleting a
// linked contact, and the postal address a registrant, admin or tech contact needs.
import { describe, expect, it } from "vitest";
import { api, createContact, createDomain, errorFields, errorFor, expectProblem, idsOf } from "./helpers";

/** A contact with no postal address at all. */
async function noAddress(email: string) {
  const response = await api("POST", "/v1/contacts", { json: { name: "No Address", email } });
  expect(response.status, response.text).toBe(201);
  expect(response.body.address).toMatchObject({ city: null, country_code: null });
  return response.body;
}

describe("contact status", () => {
  it("is ok until a domain uses it, linked in every role, and ok again once unlinked", async () => {
    for (const role of ["registrant", "admin", "tech", "billing"] as const) {
      const contact = await createContact({ email: `status-${role}@example.org` });
      expect(contact.status).toEqual(["ok"]);
      const link = role === "registrant" ? { registrant: contact.id } : { contacts: { [role]: contact.id } };
      const domain = await createDomain(`status-${role}.com`, link);
      expect((await api("GET", `/v1/contacts/${contact.id}`)).body.status, role).toEqual(["linked"]);
      expect((await api("GET", `/v1/contacts?email=status-${role}@example.org`)).body.data[0].status, role).toEqual(["linked"]);
      const unlink = role === "registrant" ? { registrant: null } : { contacts: { [role]: null } };
      expect((await api("PATCH", `/v1/domains/${domain.id}`, { json: unlink })).status).toBe(200);
      expect((await api("GET", `/v1/contacts/${contact.id}`)).body.status, role).toEqual(["ok"]);
    }
  });

  it("stays linked while any domain uses it and is ok after the last domain is deleted", async () => {
    const contact = await createContact({ email: "status-two-domains@example.org" });
    await createDomain("status-first.net", { registrant: contact.id });
    await createDomain("status-second.org", { contacts: { billing: contact.id } });
    expect((await api("DELETE", "/v1/domains/status-first.net")).status).toBe(204);
    expect((await api("GET", `/v1/contacts/${contact.id}`)).body.status).toEqual(["linked"]);
    expect((await api("DELETE", "/v1/domains/status-second.org")).status).toBe(204);
    expect((await api("GET", `/v1/contacts/${contact.id}`)).body.status).toEqual(["ok"]);
  });
});

describe("deleting a linked contact", () => {
  it("answers 409 object_linked naming the domains that use it, billing included", async () => {
    const contact = await createContact({ email: "linked-delete@example.org" });
    await createDomain("uses-as-registrant.com", { registrant: contact.id });
    await createDomain("uses-as-billing.co.uk", { contacts: { billing: contact.id } });
    const problem = expectProblem(await api("DELETE", `/v1/contacts/${contact.id}`), 409, "object_linked");
    expect(problem.detail).toContain("uses-as-registrant.com");
    expect(problem.detail).toContain("uses-as-billing.co.uk");
    expect((await api("GET", `/v1/contacts/${contact.id}`)).body).toMatchObject({ id: contact.id, status: ["linked"] });
  });

  it("a contact used only as billing contact is linked too", async () => {
    const contact = await noAddress("billing-only-delete@example.org");
    await createDomain("billing-only-delete.com", { contacts: { billing: contact.id } });
    const problem = expectProblem(await api("DELETE", `/v1/contacts/${contact.id}`), 409, "object_linked");
    expect(problem.detail).toContain("billing-only-delete.com");
  });

  it("succeeds with 204 once no domain uses it", async () => {
    const contact = await createContact({ email: "unlinked-delete@example.org" });
    const domain = await createDomain("releases-contact.com", { registrant: contact.id, contacts: { admin: contact.id } });
    expectProblem(await api("DELETE", `/v1/contacts/${contact.id}`), 409, "object_linked");
    expect((await api("PATCH", `/v1/domains/${domain.id}`, { json: { registrant: null, contacts: null } })).status).toBe(200);
    expect((await api("DELETE", `/v1/contacts/${contact.id}`)).status).toBe(204);
    expectProblem(await api("GET", `/v1/contacts/${contact.id}`), 404, "not_found");
  });
});

describe("registrant, admin and tech contacts need a city and a country", () => {
  const roles: [string, (id: string) => Record<string, unknown>][] = [
    ["registrant", (id) => ({ registrant: id })],
    ["contacts.admin", (id) => ({ contacts: { admin: id } })],
    ["contacts.tech", (id) => ({ contacts: { tech: id } })],
  ];

  it("linking a contact without an address on registration answers 422 policy_violation naming the role, the contact and the missing fields", async () => {
    const contact = await noAddress("no-address@example.org");
    for (const [field, link] of roles) {
      const problem = expectProblem(await api("POST", "/v1/domains", { json: { name: "needs-address.com", ...link(contact.id) } }), 422, "policy_violation");
      expect(errorFields(problem), field).toEqual([field]);
      const message = errorFor(problem, field).message;
      expect(message).toContain(contact.id);
      expect(message).toContain("address.city");
      expect(message).toContain("address.country_code");
    }
    expectProblem(await api("GET", "/v1/domains/needs-address.com"), 404, "not_found");
    expect((await api("GET", `/v1/contacts/${contact.id}`)).body.status).toEqual(["ok"]);
  });

  it("names only the field that is missing: a city without a country, a country without a city", async () => {
    const noCountry = await createContact({ email: "no-country@example.org", address: { city: "London" } });
    const noCity = await createContact({ email: "no-city@example.org", address: { country_code: "GB", street: ["1 Road"] } });
    const problem = expectProblem(
      await api("POST", "/v1/domains", { json: { name: "half-address.com", registrant: noCountry.id, contacts: { tech: noCity.id } } }),
      422,
      "policy_violation",
    );
    expect(errorFields(problem)).toEqual(["contacts.tech", "registrant"]);
    expect(errorFor(problem, "registrant").message).toContain("address.country_code");
    expect(errorFor(problem, "registrant").message).not.toContain("address.city");
    expect(errorFor(problem, "contacts.tech").message).toContain("address.city");
    expect(errorFor(problem, "contacts.tech").message).not.toContain("address.country_code");
  });

  it("a contact without an address may be the billing contact", async () => {
    const contact = await noAddress("billing-no-address@example.org");
    const domain = await createDomain("billing-no-address.com", { contacts: { billing: contact.id } });
    expect(domain.contacts).toEqual({ admin: null, tech: null, billing: contact.id });
    expect((await api("GET", `/v1/contacts/${contact.id}`)).body.status).toEqual(["linked"]);
  });

  it("linking one on PATCH answers 422 policy_violation the same way and changes nothing", async () => {
    const contact = await noAddress("patch-no-address@example.org");
    const domain = await createDomain("patch-needs-address.com");
    for (const [field, link] of roles) {
      const problem = expectProblem(await api("PATCH", `/v1/domains/${domain.id}`, { json: link(contact.id) }), 422, "policy_violation");
      expect(errorFields(problem), field).toEqual([field]);
      expect(errorFor(problem, field).message).toContain(contact.id);
    }
    expect((await api("GET", `/v1/domains/${domain.id}`)).body).toEqual(domain);
    expect((await api("PATCH", `/v1/domains/${domain.id}`, { json: { contacts: { billing: contact.id } } })).status).toBe(200);
  });

  it("is reported with the other problems of the request", async () => {
    const contact = await noAddress("combined-no-address@example.org");
    const problem = expectProblem(
      await api("POST", "/v1/domains", { json: { name: "combined-address.com", registrant: contact.id, period: 11 } }),
      422,
      "policy_violation",
    );
    expect(errorFields(problem)).toEqual(["period", "registrant"]);
  });
});

describe("changing a linked contact's address", () => {
  it("a PATCH removing the city of a registrant answers 422 policy_violation naming the domains, and changes nothing", async () => {
    const contact = await createContact({ email: "keep-city@example.org" });
    await createDomain("keeps-city.com", { registrant: contact.id });
    const response = await api("PATCH", `/v1/contacts/${contact.id}`, { json: { address: { city: null } } });
    const problem = expectProblem(response, 422, "policy_violation");
    expect(errorFields(problem)).toEqual(["address.city"]);
    expect(problem.detail).toContain("keeps-city.com");
    expect((await api("GET", `/v1/contacts/${contact.id}`)).body).toEqual({ ...contact, status: ["linked"] });
  });

  it("removing the country or the whole address of an admin or tech contact is refused too", async () => {
    const admin = await createContact({ email: "keep-country@example.org" });
    const tech = await createContact({ email: "keep-address@example.org" });
    await createDomain("keeps-address.net", { contacts: { admin: admin.id, tech: tech.id } });
    const country = expectProblem(await api("PATCH", `/v1/contacts/${admin.id}`, { json: { address: { country_code: null } } }), 422, "policy_violation");
    expect(errorFields(country)).toEqual(["address.country_code"]);
    const whole = expectProblem(await api("PATCH", `/v1/contacts/${tech.id}`, { json: { address: null } }), 422, "policy_violation");
    expect(errorFields(whole)).toEqual(["address.city", "address.country_code"]);
    expect((await api("GET", `/v1/contacts/${tech.id}`)).body.address).toEqual(tech.address);
  });

  it("other changes to a linked contact are accepted, a new city included", async () => {
    const contact = await createContact({ email: "move-city@example.org" });
    await createDomain("moves-city.com", { registrant: contact.id });
    const response = await api("PATCH", `/v1/contacts/${contact.id}`, { json: { address: { city: "Manchester", state: null }, organization: "New Org" } });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ organization: "New Org", address: { city: "Manchester", country_code: "GB" }, status: ["linked"] });
  });

  it("removing the city of a contact used only as billing contact is accepted", async () => {
    const contact = await createContact({ email: "billing-city@example.org" });
    await createDomain("billing-city.com", { contacts: { billing: contact.id } });
    const response = await api("PATCH", `/v1/contacts/${contact.id}`, { json: { address: null } });
    expect(response.status, response.text).toBe(200);
    expect(response.body.address).toEqual({ street: [], city: null, state: null, postal_code: null, country_code: null });
  });

  it("removing the city of an unlinked contact is accepted", async () => {
    const contact = await createContact({ email: "free-city@example.org" });
    const response = await api("PATCH", `/v1/contacts/${contact.id}`, { json: { address: { city: null } } });
    expect(response.status, response.text).toBe(200);
    expect(response.body.address.city).toBeNull();
  });
});

describe("the contacts a repository holds", () => {
  it("follow the domains' links in every role", async () => {
    const contact = await createContact({ email: "held-by-pir@example.org" });
    const billing = await noAddress("held-billing-by-pir@example.org");
    await createDomain("held-contacts.org", { contacts: { tech: contact.id, billing: billing.id } });
    expect(idsOf(await api("GET", "/v1/repositories/pir/contacts"))).toEqual([contact.id, billing.id]);
    expect(idsOf(await api("GET", "/v1/repositories/pir/contacts?email=held-billing-by-pir@example.org"))).toEqual([billing.id]);
  });
});
