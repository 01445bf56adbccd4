// The JSON of PowerDNS's remote backend protocol (PowerDNS 4.7, modules/remotebackend):
// every answer is `{"result": …}`; `false` means "nothing here" (PowerDNS reads it as no
// data, never as an error). Names are absolute with the trailing dot.
import { z } from "@hono/zod-openapi";

export const DnsRecordSchema = z
  .object({
    qtype: z.string().openapi({ example: "A", description: "Record type mnemonic (`SOA` for the zone's own SOA)." }),
    qname: z.string().openapi({ example: "www.example.com.", description: "Owner name, absolute, with the trailing dot." }),
    content: z.string().openapi({ example: "192.0.2.10", description: "RDATA in canonical presentation form (names absolute, with the dot)." }),
    ttl: z.number().int().openapi({ example: 3600, description: "The RRset's TTL." }),
    domain_id: z.number().int().openapi({ example: 1, description: "The zone's number (as `getDomainInfo` gives it)." }),
    auth: z.literal(0).optional().openapi({
      description:
        "`0` on a delegation's records (the NS of a name below the apex, and any other record there but DS) and on every record below a delegation (glue): not authoritative, so PowerDNS refers there and does not sign them (RFC 4035 §2.2). Absent means 1.",
    }),
  })
  .openapi("PdnsRecord");

export const LookupResultSchema = z
  .object({ result: z.union([z.array(DnsRecordSchema), z.literal(false)]) })
  .openapi("PdnsRecords", { description: "Records, or `false` when there are none (no zone holds the name, or no record matches)." });

export const DomainInfoSchema = z
  .object({
    id: z.number().int().openapi({ example: 1, description: "The zone's number for PowerDNS (stable while the zone exists)." }),
    zone: z.string().openapi({ example: "example.com.", description: "The zone's name, absolute." }),
    kind: z.literal("master").openapi({
      description:
        "`master`: this service is the zone's primary; PowerDNS sends NOTIFY when `serial` moves past `notified_serial`, and secondaries transfer it with AXFR.",
    }),
    serial: z.number().int().openapi({ example: 2026112201, description: "The zone's SOA serial." }),
    notified_serial: z.number().int().openapi({ example: 2026112201, description: "The serial PowerDNS last sent NOTIFY for (setNotified); 0 when never." }),
    last_check: z.number().int().openapi({ example: 0, description: "Not used for a primary zone: 0." }),
    masters: z.array(z.string()).openapi({ example: [], description: "A primary zone has none." }),
  })
  .openapi("PdnsDomainInfo");

export const DomainInfoResultSchema = z
  .object({ result: z.union([DomainInfoSchema, z.literal(false)]) })
  .openapi("PdnsDomainInfoResult", { description: "The zone, or `false` when no zone has this name." });

export const AllDomainsResultSchema = z.object({ result: z.array(DomainInfoSchema) }).openapi("PdnsAllDomains");

export const UpdatedMastersResultSchema = z
  .object({ result: z.array(DomainInfoSchema) })
  .openapi("PdnsUpdatedMasters", { description: "The zones (and the catalog zone) whose serial moved since PowerDNS last sent NOTIFY for them." });

export const SetNotifiedResultSchema = z
  .object({ result: z.boolean().openapi({ description: "`true` when the zone exists and the serial was kept; `false` for no such zone." }) })
  .openapi("PdnsSetNotified");

export const AllMetadataResultSchema = z
  .object({ result: z.record(z.string(), z.array(z.string())) })
  .openapi("PdnsAllMetadata", { description: "Metadata by kind: `{}`, but a signed zone's DNSSEC settings." });

export const MetadataResultSchema = z
  .object({ result: z.array(z.string()) })
  .openapi("PdnsMetadata", { description: "The values of one metadata kind (`[]` when none)." });

export const DomainKeysResultSchema = z
  .object({
    result: z.union([
      z.literal(false),
      z.array(
        z.object({
          id: z.number().int(),
          flags: z.number().int(),
          active: z.boolean(),
          published: z.boolean(),
          content: z.string().openapi({ description: "The private key, BIND's v1.2 private-key format." }),
        }),
      ),
    ]),
  })
  .openapi("PdnsDomainKeys", { description: "A zone's signing keys, as PowerDNS's remote backend reads them." });

export const AllDomainsQuery = z.object({
  includeDisabled: z
    .enum(["true", "false"], { error: "must be true or false" })
    .optional()
    .openapi({ description: "Sent by PowerDNS; every zone here is enabled, so it changes nothing.", example: "false" }),
});

export const NsecNeighboursResultSchema = z
  .object({
    result: z.union([
      z.object({
        before: z.string().openapi({ description: "The last name of the chain at or before the one asked, relative to the zone (`.`: the apex)." }),
        after: z.string().openapi({ description: "The first name of the chain after the one asked (the apex after the last)." }),
        unhashed: z.string().openapi({ description: "The name asked, as sent (NSEC3's field; NSEC does not read it)." }),
      }),
      z.literal(false),
    ]),
  })
  .openapi("PdnsNsecNeighbours", { description: "A name's neighbours in the zone's NSEC chain." });
