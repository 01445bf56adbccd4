import { describe, expect, it } from "vitest";
import { adaAddress, api, createContact, expectProblem } from "./helpers";

describe("creating a contact", () => {
  it("answers 201 with the contact, Location and ETag", async () => {
    const response = await api("POST", "/v1/contacts", {
      json: { name: "Ada Lovelace", organization: "Analytical Ltd", email: "ada@example.org", phone: "+44.2071234567", address: { ...adaAddress, country_code: "gb" } },
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^con_[0-9A-Z]{26}$/),
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
