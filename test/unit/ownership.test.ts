// Who sponsors a new object (src/access/ownership.ts, docs/accounts.md): pure rules over the
// caller's rights; the HTTP answers (422 read_only_field, 401) are tested through the Worker.
import { describe, expect, it } from "vitest";
import { accountOf, isOperatorRights, sponsorChoiceRefusal } from "../../src/access/ownership";
import type { TokenRights } from "../../src/access/token-rights";
import { mayEndTransfer, seesTransfer, type TransferEnding } from "../../src/access/transfers";

const rights = (role: TokenRights["role"]): TokenRights => ({
  accountId: role === "operator" ? "acc_OPERATOR" : "acc_CUSTOMER",
  role,
  scope: "write",
  zones: null,
  domains: null,
  records: null,
  allowedIps: null,
  expiresAt: null,
});

describe("a new object belongs to the caller's account; only an operator names another", () => {
  it("the caller's account is its token's; without a token there is none", () => {
    expect(accountOf(rights("customer"))).toBe("acc_CUSTOMER");
    expect(accountOf(null)).toBeNull();
  });
  it("only an operator's rights are an operator's", () => {
    expect(isOperatorRights(rights("operator"))).toBe(true);
    expect(isOperatorRights(rights("customer"))).toBe(false);
    expect(isOperatorRights(null)).toBe(false);
  });
  it("a customer naming an account is refused at `account`, read-only; an operator may; saying nothing is always fine", () => {
    expect(sponsorChoiceRefusal(rights("customer"), "acc_OTHER")).toEqual({
      field: "account",
      message: "is read-only: the server sets it to the token's account",
    });
    expect(sponsorChoiceRefusal(null, "acc_OTHER")).toMatchObject({ field: "account" });
    expect(sponsorChoiceRefusal(rights("operator"), "acc_OTHER")).toBeNull();
    expect(sponsorChoiceRefusal(rights("customer"), undefined)).toBeNull();
  });
});

describe("a transfer's parties: its two accounts read it, the losing account approves or rejects, the gaining one cancels, the operator does any", () => {
  const transfer = { gainingAccountId: "acc_GAINING", losingAccountId: "acc_CUSTOMER" };
  const gaining = { ...rights("customer"), accountId: "acc_GAINING" };
  const stranger = { ...rights("customer"), accountId: "acc_STRANGER" };
  it("only the two accounts and an operator see the transfer", () => {
    expect(seesTransfer(rights("customer"), transfer)).toBe(true);
    expect(seesTransfer(gaining, transfer)).toBe(true);
    expect(seesTransfer(rights("operator"), transfer)).toBe(true);
    expect(seesTransfer(stranger, transfer)).toBe(false);
    expect(seesTransfer(null, transfer)).toBe(false);
  });
  it("each ending belongs to one account, and to the operator", () => {
    expect(["approve", "reject", "cancel"].map((ending) => mayEndTransfer(rights("customer"), transfer, ending as TransferEnding))).toEqual([
      true,
      true,
      false,
    ]);
    expect(["approve", "reject", "cancel"].map((ending) => mayEndTransfer(gaining, transfer, ending as TransferEnding))).toEqual([false, false, true]);
    expect(["approve", "reject", "cancel"].map((ending) => mayEndTransfer(rights("operator"), transfer, ending as TransferEnding))).toEqual([true, true, true]);
    expect(["approve", "reject", "cancel"].map((ending) => mayEndTransfer(stranger, transfer, ending as TransferEnding))).toEqual([false, false, false]);
  });
});
