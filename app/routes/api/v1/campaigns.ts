import { apiRoute } from "~/modules/api/api-route.server";
import { listCampaigns } from "~/modules/api/endpoints/campaigns.server";

/** GET /api/v1/campaigns */
// Defined, and registered in the OpenAPI document, in app/modules/api/endpoints; here only its route.
export const loader = apiRoute(listCampaigns).loader;
export const action = apiRoute(listCampaigns).action;
