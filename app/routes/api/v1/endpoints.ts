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
import "./completions";
import "./leaderboard";
import "./leaderboard-member";
import "./members";
import "./member";
import "./xp-grants";
import "./xp-revocations";
import "./reward-pools";
import "./reward-pool-payouts";
