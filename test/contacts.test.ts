import { describe, expect, it } from "vitest";
import { adaAddress, api, CONTACT_ID, createContact, expectProblem, RFC3339_MS_UTC } from "./helpers";

describe("creating a contact", () => {
  it("answers 201 with the contact, Location and ETag", async () => {
    const response = await api("POST", "/v1/contacts", {
      json: {
        name: "Ada Lovelace",
        organization: "Analytical Ltd",
        email: "ada@example.org",
        phone: "+44.2071234567",
        address: { ...adaAddress, country_code: "gb" },
      },
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^con_[0-9A-Z]{26}$/),
      // The test's write token belongs to the operator account (migration 0009).
      account: "acc_00000000000000000000000000",
      name: "Ada Lovelace",
      organization: "Analytical Ltd",
      email: "ada@example.org",
      phone: "+44.2071234567",
      fax: null,
      address: { street: ["12 Example Row"], city: "London", state: null, postal_code: "N1 9GU", country_code: "GB" },
      privacy: false,
      status: ["ok"],
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      updated_at: response.body.created_at,
    });
    expect(response.headers.get("location")).toBe(`/v1/contacts/${response.body.id}`);
    expect(response.headers.get("etag")).toMatch(/^"1-[0-9a-z]+"$/);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
  });

  it("lists every invalid field in one 422", async () => {
    const response = await api("POST", "/v1/contacts", {
      json: { name: "", email: "not-an-email", phone: "12345", address: { country_code: "XX", street: ["a", "b", "c", "d"] } },
    });
    const problem = expectProblem(response, 422, "validation_failed");
    expect(problem.errors).toEqual(
      expect.arrayContaining([
        { field: "name", message: expect.any(String) },
        { field: "email", message: "is not an email address" },
        { field: "phone", message: "must be in EPP form +CC.NUMBER, e.g. +44.2071234567" },
        { field: "address.country_code", message: "is not an ISO 3166-1 alpha-2 country code" },
        { field: "address.street", message: "has at most 3 lines" },
      ]),
    );
  });
});

describe("required fields on create", () => {
  it("name and email missing answer 422 validation_failed naming both", async () => {
    const problem = expectProblem(await api("POST", "/v1/contacts", { json: {} }), 422, "validation_failed");
    expect(problem.errors).toEqual(
      expect.arrayContaining([
        { field: "name", message: "is required" },
        { field: "email", message: "is required" },
      ]),
    );
    expect(problem.errors).toHaveLength(2);
  });

  it("everything else is optional: name and email alone make a contact with empty optional fields", async () => {
    const response = await api("POST", "/v1/contacts", { json: { name: "Minimal", email: "minimal@example.org" } });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(CONTACT_ID),
      account: "acc_00000000000000000000000000",
      name: "Minimal",
      organization: null,
      email: "minimal@example.org",
      phone: null,
      fax: null,
      address: { street: [], city: null, state: null, postal_code: null, country_code: null },
      privacy: false,
      status: ["ok"],
      created_at: expect.stringMatching(RFC3339_MS_UTC),
      updated_at: response.body.created_at,
    });
  });
});

describe("contact name", () => {
  it("is 1–255 characters: empty, blank and 256 characters answer 422", async () => {
    for (const name of ["", "   ", "x".repeat(256)]) {
      const problem = expectProblem(await api("POST", "/v1/contacts", { json: { name, email: "name@example.org" } }), 422, "validation_failed");
      expect(problem.errors).toEqual([{ field: "name", message: expect.any(String) }]);
    }
  });

  it("of 255 characters and of one is accepted", async () => {
    for (const name of ["x".repeat(255), "X"]) {
      const response = await api("POST", "/v1/contacts", { json: { name, email: "name-ok@example.org" } });
      expect(response.status, response.text).toBe(201);
      expect(response.body.name).toBe(name);
    }
  });

  it("must be a string", async () => {
    const problem = expectProblem(await api("POST", "/v1/contacts", { json: { name: 42, email: "name-type@example.org" } }), 422, "validation_failed");
    expect(problem.errors).toEqual([{ field: "name", message: expect.any(String) }]);
  });
});

describe("contact email", () => {
  it("must be a valid address", async () => {
    for (const email of ["not-an-email", "a@", "@example.org", "a b@example.org", "a@@example.org", ""]) {
      const problem = expectProblem(await api("POST", "/v1/contacts", { json: { name: "Email", email } }), 422, "validation_failed");
      expect(problem.errors, email).toEqual([{ field: "email", message: expect.any(String) }]);
    }
  });

  it("is at most 254 characters", async () => {
    const address = (last: number) => `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(last)}.org`;
    expect(address(58)).toHaveLength(255);
    const problem = expectProblem(await api("POST", "/v1/contacts", { json: { name: "Email", email: address(58) } }), 422, "validation_failed");
    expect(problem.errors).toEqual([{ field: "email", message: expect.any(String) }]);
    expect(address(57)).toHaveLength(254);
    const response = await api("POST", "/v1/contacts", { json: { name: "Email", email: address(57) } });
    expect(response.status, response.text).toBe(201);
    expect(response.body.email).toBe(address(57));
  });

  it("is kept as given", async () => {
    const contact = await createContact({ email: "Ada.Lovelace+registry@Example.ORG" });
    expect(contact.email).toBe("Ada.Lovelace+registry@Example.ORG");
  });
});

describe("contact phone and fax", () => {
  it("in EPP form +CC.NUMBER are accepted", async () => {
    const contact = await createContact({ phone: "+1.5555551234", fax: "+353.12345678901234" });
    expect(contact).toMatchObject({ phone: "+1.5555551234", fax: "+353.12345678901234" });
  });

  it("in any other form answer 422 naming the field", async () => {
    for (const bad of ["+44 2071234567", "02071234567", "+44.", "+1234.5678", "+44.123456789012345", "+44.207-123", "44.2071234567", "+.2071234567"]) {
      const problem = expectProblem(
        await api("POST", "/v1/contacts", { json: { name: "Phone", email: "phone@example.org", phone: bad, fax: bad } }),
        422,
        "validation_failed",
      );
      expect(problem.errors, bad).toEqual(
        expect.arrayContaining([
          { field: "phone", message: "must be in EPP form +CC.NUMBER, e.g. +44.2071234567" },
          { field: "fax", message: "must be in EPP form +CC.NUMBER, e.g. +44.2071234567" },
        ]),
      );
      expect(problem.errors).toHaveLength(2);
    }
  });
});

describe("contact country_code", () => {
  it("is stored upper-case", async () => {
    const contact = await createContact({ address: { ...adaAddress, country_code: "gb" } });
    expect(contact.address.country_code).toBe("GB");
    const patched = await api("PATCH", `/v1/contacts/${contact.id}`, { json: { address: { country_code: "de" } } });
    expect(patched.status).toBe(200);
    expect(patched.body.address.country_code).toBe("DE");
  });

  it("must be an ISO 3166-1 alpha-2 code that exists", async () => {
    for (const code of ["XX", "UK", "GBR", "G", "", "12"]) {
      const problem = expectProblem(
        await api("POST", "/v1/contacts", { json: { name: "Country", email: "country@example.org", address: { country_code: code } } }),
        422,
        "validation_failed",
      );
      expect(problem.errors, code).toEqual([{ field: "address.country_code", message: expect.any(String) }]);
    }
  });
});

describe("contact street", () => {
  it("takes 0 to 3 lines", async () => {
    for (const street of [[], ["One"], ["One", "Two", "Three"]]) {
      const contact = await createContact({ address: { ...adaAddress, street } });
      expect(contact.address.street).toEqual(street);
    }
  });

  it("with 4 lines answers 422 naming address.street", async () => {
    const problem = expectProblem(
      await api("POST", "/v1/contacts", { json: { name: "Street", email: "street@example.org", address: { street: ["1", "2", "3", "4"] } } }),
      422,
      "validation_failed",
    );
    expect(problem.errors).toEqual([{ field: "address.street", message: "has at most 3 lines" }]);
  });

  it("names the line at fault", async () => {
    const problem = expectProblem(
      await api("POST", "/v1/contacts", { json: { name: "Street", email: "street@example.org", address: { street: ["ok", 7] } } }),
      422,
      "validation_failed",
    );
    expect(problem.errors).toEqual([{ field: "address.street[1]", message: expect.any(String) }]);
  });
});

describe("the email filter", () => {
  it("is a case-insensitive exact match", async () => {
    const grace = await createContact({ name: "Grace Hopper", email: "Grace.Hopper@Navy.example" });
    await createContact({ name: "Not Grace", email: "grace.hopper@navy.example.net" });
    const found = await api("GET", "/v1/contacts?email=grace.hopper@NAVY.example");
    expect(found.status).toBe(200);
    expect(found.body).toEqual({ data: [grace], next_cursor: null });
    for (const partial of ["race.hopper@navy.example", "grace.hopper@navy", "Grace"]) {
      expect((await api("GET", `/v1/contacts?email=${encodeURIComponent(partial)}`)).body.data, partial).toEqual([]);
    }
  });
});

describe("the q filter", () => {
  it("is a case-insensitive substring of the name", async () => {
    const ada = await createContact({ name: "Augusta Ada King-Noel" });
    const found = await api("GET", "/v1/contacts?q=ADA%20KING");
    expect(found.status).toBe(200);
    expect(found.body).toEqual({ data: [ada], next_cursor: null });
    expect((await api("GET", "/v1/contacts?q=king-noel")).body.data).toEqual([ada]);
  });

  it("is case-insensitive beyond ASCII", async () => {
    const zoe = await createContact({ name: "Zoë Ångström-Økland" });
    expect((await api("GET", `/v1/contacts?q=${encodeURIComponent("ångström-økland")}`)).body.data).toEqual([zoe]);
  });

  it("treats % and _ as literal characters, not wildcards", async () => {
    const percent = await createContact({ name: "Hundred% Pure" });
    await createContact({ name: "Hundred Pure" });
    await createContact({ name: "Hundred Percent Pure" });
    const under = await createContact({ name: "Snake_case Ltd" });
    await createContact({ name: "SnakeXcase Ltd" });
    expect((await api("GET", `/v1/contacts?q=${encodeURIComponent("hundred%")}`)).body.data).toEqual([percent]);
    expect((await api("GET", `/v1/contacts?q=${encodeURIComponent("snake_case")}`)).body.data).toEqual([under]);
    expect((await api("GET", `/v1/contacts?q=${encodeURIComponent("%")}`)).body.data).toEqual([percent]);
    expect((await api("GET", `/v1/contacts?q=${encodeURIComponent("\\")}`)).body.data).toEqual([]);
  });

  it("combines with email by AND", async () => {
    const both = await createContact({ name: "Filter Both", email: "filter-both@example.org" });
    await createContact({ name: "Filter Both", email: "filter-other@example.org" });
    expect((await api("GET", "/v1/contacts?q=filter%20both&email=filter-both@example.org")).body.data).toEqual([both]);
    expect((await api("GET", "/v1/contacts?q=nobody&email=filter-both@example.org")).body.data).toEqual([]);
  });
});

describe("reading a contact", () => {
  it("answers 200 with the contact and its ETag", async () => {
    const created = await api("POST", "/v1/contacts", { json: { name: "Read Me", email: "read-me@example.org" } });
    const response = await api("GET", `/v1/contacts/${created.body.id}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual(created.body);
    expect(response.headers.get("etag")).toBe(created.headers.get("etag"));
  });

  it("with an unknown id answers 404 not_found", async () => {
    for (const id of ["con_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B", "nope", "con_", "has.a.dot", "%E2%9C%93"]) {
      expectProblem(await api("GET", `/v1/contacts/${id}`), 404, "not_found");
    }
  });

  it("that does not exist answers 404 to PATCH and DELETE too", async () => {
    expectProblem(await api("PATCH", "/v1/contacts/con_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B", { json: { name: "X" } }), 404, "not_found");
    expectProblem(await api("DELETE", "/v1/contacts/con_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B"), 404, "not_found");
  });
});

describe("deleting a contact", () => {
  it("answers 204 with no body, then GET answers 404 and a second DELETE 404", async () => {
    const contact = await createContact({ name: "Delete Me", email: "delete-me@example.org" });
    const response = await api("DELETE", `/v1/contacts/${contact.id}`);
    expect(response.status).toBe(204);
    expect(response.text).toBe("");
    expect(response.headers.get("x-request-id")).toBeTruthy();
    expectProblem(await api("GET", `/v1/contacts/${contact.id}`), 404, "not_found");
    expectProblem(await api("DELETE", `/v1/contacts/${contact.id}`), 404, "not_found");
    expect((await api("GET", "/v1/contacts?email=delete-me@example.org")).body.data).toEqual([]);
  });
});

describe("contact privacy", () => {
  it("defaults to false, is a boolean and can be patched", async () => {
    const contact = await createContact({ name: "Private", email: "private@example.org", privacy: true });
    expect(contact.privacy).toBe(true);
    const problem = expectProblem(await api("PATCH", `/v1/contacts/${contact.id}`, { json: { privacy: "yes" } }), 422, "validation_failed");
    expect(problem.errors).toEqual([{ field: "privacy", message: expect.any(String) }]);
    const patched = await api("PATCH", `/v1/contacts/${contact.id}`, { json: { privacy: false } });
    expect(patched.body.privacy).toBe(false);
  });
});
