import { extendZodWithOpenApi } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";

/**
 * zod with `.openapi()` (parameter words, component names): API schema files import `z` from here,
 * so the extension is in place before any of them is built.
 */
extendZodWithOpenApi(z);

export { z };
