// SRV (RFC 2782): priority, weight, port and the target host; a target of "." says
// the service is decidedly not available at this domain.
import { ok } from "../result";
import { defineRdata, referencedName } from "./descriptor";
import { nameField, uintField } from "./fields";
import { concatWire, nameWire, u16 } from "./wire";

export const SRV = defineRdata({
  type: "SRV",
  code: 33,
  shape: "priority, weight, port and target",
  example: "10 5 5060 sip.example.com.",
  tokens: { min: 4 },
  parse([priorityToken, weightToken, portToken, targetToken], origin) {
    const priority = uintField(priorityToken, 65535, "SRV priority");
    if (!priority.ok) return priority;
    const weight = uintField(weightToken, 65535, "SRV weight");
    if (!weight.ok) return weight;
    const port = uintField(portToken, 65535, "SRV port");
    if (!port.ok) return port;
    // The target is a host name, so LDH (RFC 2782); "." means no service.
    const target = nameField(targetToken, origin, "SRV target", { root: true });
    if (!target.ok) return target;
    return ok({ priority: priority.value, weight: weight.value, port: port.value, target: target.value });
  },
  text: ({ priority, weight, port, target }) => `${priority} ${weight} ${port} ${target}`,
  wire: ({ priority, weight, port, target }) => concatWire(u16(priority), u16(weight), u16(port), nameWire(target)),
  names: ({ target }) => referencedName(target),
  fromWire: (r) => `${r.u16()} ${r.u16()} ${r.u16()} ${r.name()}`,
});
