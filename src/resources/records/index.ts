// The records collection: each operation in its own file, wired to its route here.
import { createRouter } from "../../http/router";
import { applyZoneChanges } from "./changes";
import { createRecord } from "./create";
import { deleteRecord } from "./delete";
import { getRecord, listRecords, listZoneRecords } from "./read";
import * as routes from "./routes";
import { updateRecord } from "./update";

export const recordsRouter = createRouter()
  .openapi(routes.listRecords, listRecords)
  .openapi(routes.listZoneRecords, listZoneRecords)
  .openapi(routes.getRecord, getRecord)
  .openapi(routes.createRecord, createRecord)
  .openapi(routes.updateRecord, updateRecord)
  .openapi(routes.deleteRecord, deleteRecord)
  .openapi(routes.applyZoneChanges, applyZoneChanges);
