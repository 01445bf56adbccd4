// Who takes part in a transfer between accounts (RFC 5731 §3.2.4, docs/accounts.md
// "Transfers between accounts"): its two accounts, and the operator. Anyone else is told
// nothing (404), as if there were no transfer.
import { isOperatorRights } from "./ownership";
import type { TokenRights } from "./token-rights";

/** The two accounts of a transfer (null: the side is another registrar, at a connected registry). */
export interface TransferParties {
  gainingAccountId: string | null;
  losingAccountId: string | null;
}

export type TransferEnding = "approve" | "reject" | "cancel";

/** Whether the caller may read a transfer: its gaining or its losing account, or an operator. */
export function seesTransfer(rights: TokenRights | null, transfer: TransferParties): boolean {
  const account = rights?.accountId;
  return isOperatorRights(rights) || (account !== undefined && (account === transfer.gainingAccountId || account === transfer.losingAccountId));
}

/** Whether the caller may end a transfer so: the losing account approves or rejects, the gaining one cancels; an operator does any. */
export function mayEndTransfer(rights: TokenRights | null, transfer: TransferParties, ending: TransferEnding): boolean {
  const party = ending === "cancel" ? transfer.gainingAccountId : transfer.losingAccountId;
  return isOperatorRights(rights) || (party !== null && rights?.accountId === party);
}
