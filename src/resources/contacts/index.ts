// The contacts collection: each operation in its own file, wired to its route here.
import { createRouter } from "../../http/router";
import { createContact } from "./create";
import { deleteContact } from "./delete";
import { getContact, listContacts, listRepositoryContacts } from "./read";
import * as routes from "./routes";
import { updateContact } from "./update";

export const contactsRouter = createRouter()
  .openapi(routes.listContacts, listContacts)
  .openapi(routes.listRepositoryContacts, listRepositoryContacts)
  .openapi(routes.getContact, getContact)
  .openapi(routes.createContact, createContact)
  .openapi(routes.updateContact, updateContact)
  .openapi(routes.deleteContact, deleteContact);
