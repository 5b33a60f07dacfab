import { apiRoute } from "~/modules/api/api-route.server";
import { getCampaign } from "~/modules/api/endpoints/campaign.server";

/** GET /api/v1/campaigns/:id */
// Defined, and registered in the OpenAPI document, in app/modules/api/endpoints; here only its route.
export const loader = apiRoute(getCampaign).loader;
export const action = apiRoute(getCampaign).action;
