/**
 * Every module of /api/v1's endpoints: importing this list registers them all in
 * the OpenAPI document (openapi-json.ts) and in `apiOperations` (the scope table test). A new
 * endpoint module is one line here, and its route module in app/routes/api/v1 (listed in app/routes.ts).
 */
import "./project.server";
import "./campaigns.server";
import "./campaign.server";
import "./crusades.server";
import "./tasks.server";
import "./task-writes.server";
import "./airdrops.server";
import "./completions.server";
import "./leaderboard.server";
import "./leaderboard-member.server";
import "./members.server";
import "./member.server";
import "./xp-grants.server";
import "./xp-revocations.server";
import "./reward-pools.server";
import "./reward-pool-payouts.server";

import { openApiDocument } from "../openapi-registry.server";

/** The OpenAPI document with every endpoint above registered (importing this module is what registers them). */
export const apiDocument = (options: Parameters<typeof openApiDocument>[0]) => openApiDocument(options);
