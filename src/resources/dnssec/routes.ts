import { z } from "@hono/zod-openapi";
import { JSON_MEDIA_TYPE } from "../../http/json-body";
import { KEY_STATES } from "../../dns/dnssec/rollover";
import { SIGNING_ALGORITHMS } from "../../dns/dnssec/signing-policy";
import { errorResponses, mergePatchBody, noContentResponse } from "../../http/openapi";
import { ZoneParams } from "../../http/params";
import { defineRoute } from "../../http/route";
import { DNSSEC_OFF_EXAMPLE, DNSSEC_POLICY_PATCH_EXAMPLE, DNSSEC_STATE_EXAMPLE, DNSSEC_UNSIGNING_EXAMPLE } from "./examples";

const tags = ["DNSSEC"];

export const SigningPolicySchema = z
  .object({
    algorithm: z
      .number()
      .int()
      .openapi({
        description: `The algorithm new keys get: ${SIGNING_ALGORITHMS.join(", ")} (RSASHA256, ECDSAP256SHA256, ECDSAP384SHA384, ED25519: RFC 8624 §3.1).`,
      }),
    ksk_lifetime_days: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "Days a KSK (or the combined key) signs before it is rolled, 1 to 3650, at least as long as the roll; null: never rolled." }),
    zsk_lifetime_days: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "Days a ZSK signs before it is rolled; null: never rolled. Null with `single_key`." }),
    single_key: z.boolean().openapi({ description: "One combined key (CSK) signs everything (true), or a KSK and a ZSK." }),
  })
  .openapi("SigningPolicy", { description: "The zone's signing policy; the default is BIND's: one combined key, algorithm 13, never rolled." });

export const DnssecKeySchema = z
  .object({
    id: z.string().openapi({ description: "The key's id (`key_…`)." }),
    key_tag: z.number().int().openapi({ description: "Key tag (RFC 4034 appendix B)." }),
    algorithm: z.number().int().openapi({ description: "13: ECDSA P-256 with SHA-256 (RFC 6605)." }),
    flags: z.number().int().openapi({ description: "257: zone key and secure entry point, one combined signing key." }),
    active: z.boolean().openapi({
      description: "Whether the key is live (not `removed`). A removed key stays listed, inactive, while its DS is `withdrawn`: the parent must still drop it.",
    }),
    role: z
      .enum(["csk", "ksk", "zsk"])
      .openapi({ description: "`csk`: one combined key signs everything; `ksk` signs the DNSKEY RRset (its DS is at the parent); `zsk` signs the rest." }),
    state: z.enum(KEY_STATES).openapi({
      description:
        "RFC 7583 §3.1: `published` (in the DNSKEY RRset, not signing), `ready`, `active` (signing), `retired` (published, no longer signing), `removed`; in an algorithm roll also `pre-published` (signing before its DNSKEY is out) and `post-active` (signing after its DNSKEY went).",
    }),
    ds_state: z.enum(["absent", "submitted", "seen", "withdrawn"]).openapi({
      description: "The key's DS at the parent: `submitted` (wanted, not yet seen there), `seen`, `withdrawn` (not wanted, still there last seen), `absent`.",
    }),
    next_step_at: z.string().nullable().openapi({ description: "When the key's next step is due; null when it waits for the parent, or for nothing." }),
    dnskey: z.string().openapi({ description: "The DNSKEY RDATA as the apex publishes it." }),
    ds: z.array(z.string()).openapi({ description: "The DS RDATA for the parent: SHA-256 (digest type 2), then SHA-384 (4)." }),
    created_at: z.string(),
  })
  .openapi("DnssecKey");

export const AwaitingParentSchema = z
  .object({
    since: z
      .string()
      .openapi({ description: "When the DS change the parent has not followed was asked for (a DS to add, `submitted`, or to drop, `withdrawn`)." }),
    expected_at: z
      .string()
      .openapi({ description: "When the parent should have followed: `since` plus its registration delay (0 for a parent that reads CDS)." }),
    stalls_at: z.string().nullable().openapi({
      description: "When the roll is reported stalled (`dnssec.rollover.stalled`), 7 days past `expected_at`; null for keys at rest, where no roll waits.",
    }),
  })
  .openapi("AwaitingParent", { description: "A parent step the zone's keys wait for." });

export const DnssecStateSchema = z
  .object({
    enabled: z.boolean(),
    denial: z.string().optional().openapi({
      description: "How non-existence is proved: `nsec` (NSEC records signed per answer, RFC 4034 §4; the zone can be transferred and its names listed).",
    }),
    keys: z.array(DnssecKeySchema),
    policy: SigningPolicySchema,
    rollover: z
      .object({
        kind: z.enum(["zsk", "ksk", "csk", "algorithm", "sign", "unsign"]),
        started_at: z.string(),
        stalled_at: z.string().nullable().openapi({ description: "When `dnssec.rollover.stalled` was reported for the parent step it waits for." }),
      })
      .nullable()
      .openapi({ description: "The roll running (one at a time per zone), the first signing, or the way out of DNSSEC; null when the keys are at rest." }),
    next_step_at: z
      .string()
      .nullable()
      .openapi({ description: "The earliest moment the zone's keys may have a step to take (the scheduled run's next look)." }),
    awaiting_parent: AwaitingParentSchema.nullable().openapi({
      description:
        "The parent step the zone's keys wait for: their next step is taken only once the parent shows every wanted DS (`ds_state` `submitted` until then) and none of the withdrawn ones (`withdrawn`), whether a roll waits or keys at rest do. Null when the next step is the zone's own (a wait for caches, a step due now, or nothing).",
    }),
  })
  .openapi("DnssecState");

export const DnssecPatchSchema = z
  .object({
    policy: z
      .object({
        algorithm: z.number().optional(),
        ksk_lifetime_days: z.number().nullable().optional(),
        zsk_lifetime_days: z.number().nullable().optional(),
        single_key: z.boolean().optional(),
      })
      .strict()
      .nullable()
      .optional()
      .openapi({ description: "Fields to change in the policy; `null` sets the default policy back." }),
  })
  .strict()
  .openapi("DnssecPatch");

export const DisableQuery = z.object({
  force: z.enum(["true", "false"]).optional().openapi({ description: "`true` turns signing off even while a domain here publishes a DS of the key." }),
});

const stateContent = (example: unknown) => ({ [JSON_MEDIA_TYPE]: { schema: DnssecStateSchema, example } });

export const enableDnssec = defineRoute({
  operationId: "enableDnssec",
  access: { scope: "write", narrow: "visible" },
  method: "post",
  path: "/zones/{zone}/dnssec",
  tags,
  summary: "Turn DNSSEC signing on",
  description:
    "Generates the zone's key (ECDSA P-256, algorithm 13, flags 257) and signs the zone from then on. The apex gains DNSKEY, CDS and CDNSKEY. A domain of the same name sponsored by the zone's account, under an extension with DNSSEC, gets the key's SHA-256 DS in the same step.",
  request: { params: ZoneParams },
  responses: { 201: { description: "Signing is on.", content: stateContent(DNSSEC_STATE_EXAMPLE) }, ...errorResponses(404, 409, 503) },
});

export const getDnssec = defineRoute({
  operationId: "getDnssec",
  access: { scope: "read", narrow: "visible", records: true },
  method: "get",
  path: "/zones/{zone}/dnssec",
  tags,
  summary: "Read the zone's DNSSEC state",
  description:
    'The keys with their DNSKEY, DS, state and DS state (the live ones, and a removed one while the parent still shows its DS), the policy, the roll running, its next step and the parent step it waits for (`awaiting_parent`); `{"enabled": false, "keys": []}` when signing is off. Private keys are never shown.',
  request: { params: ZoneParams },
  responses: { 200: { description: "The DNSSEC state.", content: stateContent(DNSSEC_OFF_EXAMPLE) }, ...errorResponses(404) },
});

export const updateDnssec = defineRoute({
  operationId: "updateDnssec",
  access: { scope: "write", narrow: "visible" },
  method: "patch",
  path: "/zones/{zone}/dnssec",
  tags,
  summary: "Change the zone's signing policy",
  description:
    "Sets the policy keys follow: algorithm, one combined key or a KSK and a ZSK, their lifetimes. Checked against the zone's own TTLs and its parent's (a lifetime shorter than the roll it starts is 422). A signed zone takes a new policy by rolling, from the next run on (`POST /dnssec/run`, hourly): nothing changes in the zone at once. `{\"policy\": null}` sets the default back.",
  request: { params: ZoneParams, body: mergePatchBody(DnssecPatchSchema, "The policy fields to change.", DNSSEC_POLICY_PATCH_EXAMPLE) },
  responses: {
    200: { description: "The DNSSEC state with the new policy.", content: stateContent(DNSSEC_STATE_EXAMPLE) },
    ...errorResponses(400, 404, 409, 415, 422),
  },
});

export const disableDnssec = defineRoute({
  operationId: "disableDnssec",
  access: { scope: "write", narrow: "visible" },
  method: "delete",
  path: "/zones/{zone}/dnssec",
  tags,
  summary: "Turn DNSSEC signing off",
  description:
    "Removes the keys; the domain of the same name managed here loses the DS this service set. Refused with 409 `status_prohibits` while a domain managed here publishes a DS of the key, unless `?force=true` (a DS without signatures makes the zone bogus for validating resolvers). A zone whose parent is not managed here and may show its DS leaves DNSSEC by RFC 8078 instead: 202, the zone publishes the delete (`CDS 0 0 0 00`, `CDNSKEY 0 3 0 AA==`) and stays signed until the parent shows no DS (asked by the DNSSEC run, or said by an operator with `POST …/dnssec/ds-seen`) and no cache can hold one; then the keys go. `?force=true` stops signing at once.",
  request: { params: ZoneParams, query: DisableQuery },
  responses: {
    202: {
      description: "The zone leaves DNSSEC through its parent: the delete is published, `rollover.kind` is `unsign`.",
      content: stateContent(DNSSEC_UNSIGNING_EXAMPLE),
    },
    204: noContentResponse,
    ...errorResponses(400, 404, 409, 503),
  },
});

export const RolloverRequestSchema = z
  .object({
    kind: z
      .enum(["zsk", "ksk", "csk", "algorithm"])
      .openapi({ description: "What rolls: a ZSK (pre-publication), a KSK or the combined key (double-DS), or the algorithm (RFC 6781 §4.1.4)." }),
    algorithm: z.number().int().optional().openapi({ description: "For `algorithm`: the algorithm to roll to (8, 13, 14, 15); the policy takes it." }),
  })
  .strict()
  .openapi("RolloverRequest");

export const startRollover = defineRoute({
  operationId: "startDnssecRollover",
  access: { scope: "write", narrow: "visible" },
  method: "post",
  path: "/zones/{zone}/dnssec/rollover",
  tags,
  summary: "Start a key roll now",
  description:
    "Creates the new keys and takes the first step of the roll; the DNSSEC run takes the next steps when due. One roll at a time per zone: 409 `rollover_running` while one runs. A kind the policy has no key for, or an algorithm the service does not sign with, is 422.",
  request: {
    params: ZoneParams,
    body: {
      required: true,
      description: "The roll.",
      content: { [JSON_MEDIA_TYPE]: { schema: RolloverRequestSchema, example: { kind: "algorithm", algorithm: 13 } } },
    },
  },
  responses: {
    200: { description: "The DNSSEC state with the roll running.", content: stateContent(DNSSEC_STATE_EXAMPLE) },
    ...errorResponses(400, 404, 409, 415, 422, 503),
  },
});

export const DsSeenRequestSchema = z
  .object({
    ds: z
      .array(z.string().max(300))
      .max(20)
      .optional()
      .openapi({
        description:
          "The DS records the parent shows (their data: key tag, algorithm, digest type, hex digest), as its servers answer them; absent: the parent shows exactly the DS set the zone waits for.",
        example: ["55648 13 2 5CF0895FFC0F5544C1260E1F35ED9B80A648D87B8AA335312B552EC003D1D830"],
      }),
  })
  .strict()
  .openapi("DsSeenRequest");

export const reportDsSeen = defineRoute({
  operationId: "reportDnssecDsSeen",
  access: { scope: "write", operator: true },
  method: "post",
  path: "/zones/{zone}/dnssec/ds-seen",
  tags,
  summary: "Say what the parent's DS set is",
  description:
    "For a parent this service does not manage (a domain registered elsewhere), the roll waits until the parent shows the DS set the zone's CDS and CDNSKEY ask for. An operator who has seen the parent's DS set says so here; the steps then due are taken at once. A DS set that names none of the wanted keys, or one of a key no longer wanted, is recorded as such and the roll keeps waiting. Operators' tokens only.",
  request: {
    params: ZoneParams,
    body: {
      required: false,
      description: "Optional: the DS records the parent shows.",
      content: {
        [JSON_MEDIA_TYPE]: { schema: DsSeenRequestSchema, example: { ds: ["55648 13 2 5CF0895FFC0F5544C1260E1F35ED9B80A648D87B8AA335312B552EC003D1D830"] } },
      },
    },
  },
  responses: {
    200: { description: "The DNSSEC state after the parent's DS set was recorded.", content: stateContent(DNSSEC_STATE_EXAMPLE) },
    ...errorResponses(400, 404, 409, 415, 422),
  },
});
