import { z } from "zod";

// In the browser zod would compile schemas with `new Function` where it may, which the
// Content-Security-Policy forbids (and the browser reports each try as an issue). Told before any
// parse (`jitless`), it never tries. Modules whose schemas run in the browser import zod from here.
if (typeof document !== "undefined") z.config({ jitless: true });

export { z };
