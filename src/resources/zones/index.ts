// The zones collection: each operation in its own file, wired to its route here.
import { createRouter } from "../../http/router";
import { createZone } from "./create";
import { deleteZone } from "./delete";
import { getZone, listZones } from "./read";
import * as routes from "./routes";
import { updateZone } from "./update";

export const zonesRouter = createRouter()
  .openapi(routes.listZones, listZones)
  .openapi(routes.getZone, getZone)
  .openapi(routes.createZone, createZone)
  .openapi(routes.updateZone, updateZone)
  .openapi(routes.deleteZone, deleteZone);
