// EPP (RFC 5730–5734, 5910, 3915, 8748) as pure knowledge: commands built from typed
// values and read back, responses and greetings read into typed values and built, the
// result codes and what each means for the API, RFC 5734's framing, and the ids a
// registry holds for our contacts. No HTTP, no database, no sockets, no node: imports:
// the Worker, the registry gateway and the local registry all use it (docs/epp.md).
export * from "./command-reader";
export * from "./commands";
export * from "./framing";
export * from "./ids";
export * from "./namespaces";
export * from "./response-builder";
export * from "./responses";
export * from "./result-codes";
export * from "./session";
export * from "./types";
export { EppInputError } from "./values";
export { DEFAULT_XML_LIMITS, type XmlError, type XmlErrorCode, type XmlLimits } from "./xml";
