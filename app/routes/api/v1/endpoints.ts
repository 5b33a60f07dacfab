/**
 * Every route module of /api/v1 that defines operations: importing this list registers them all in
 * the OpenAPI document (openapi-json.ts) and in `apiOperations` (the scope table test). A new
 * endpoint module is one line here and its route in app/routes.ts.
 */
import "./project";
import "./campaigns";
import "./campaign";
import "./crusades";
import "./tasks";
import "./airdrops";
// api-data: completions, leaderboards, members, XP, reward pools.
import "~/modules/api/endpoints/completions.server";
import "~/modules/api/endpoints/leaderboard.server";
import "~/modules/api/endpoints/leaderboard-member.server";
import "~/modules/api/endpoints/members.server";
import "~/modules/api/endpoints/member.server";
import "~/modules/api/endpoints/xp-grants.server";
import "~/modules/api/endpoints/xp-revocations.server";
import "~/modules/api/endpoints/reward-pools.server";
import "~/modules/api/endpoints/reward-pool-payouts.server";
