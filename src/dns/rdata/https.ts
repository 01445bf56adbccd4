// HTTPS (RFC 9460 §9): the SVCB format, for HTTP origins.
import { serviceBindingRdata } from "./svcb";

export const HTTPS = serviceBindingRdata({ type: "HTTPS", code: 65, example: '1 . alpn="h3,h2" ipv4hint=192.0.2.10 ipv6hint=2001:db8::10' });
