// The Worker the tests run (vitest.config.ts, `main`): the API as deployed, and beside it
// the webhook sender's entrypoint, which the API's WEBHOOK_SENDER binding reaches here as
// it reaches the sender's own Worker when deployed (src/sender.ts) — the same code over a
// real service binding, in one runtime.
export { default } from "../src/index";
export { WebhookSender } from "../src/sender";
