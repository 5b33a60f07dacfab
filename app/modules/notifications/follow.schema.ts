import { z } from "zod";

/** The Follow / Following button's form on a project's page. */
export const followSchema = z.object({ intent: z.enum(["follow", "unfollow"]) });
