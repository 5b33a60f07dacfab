import { z } from "zod";

// In the browser zod would compile schemas with `new Function` where it may, which the
// Content-Security-Policy forbids (and the browser reports each try as an issue). Told before any
// parse (`jitless`), it never tries. The client build points every import of "zod" here
// (vite.config.ts), so no module can miss it; on the server this is zod as it is.
if (typeof document !== "undefined") z.config({ jitless: true });

export { z };
