// Worker entry: the whole service is the Hono app.
import { app } from "./app";

export default app;
