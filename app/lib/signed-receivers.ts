/**
 * The local trial's stand-ins for a project's server: `/dev/api-check` (an api_check task's check)
 * and `/dev/webhooks/receive/:endpoint` (a webhook delivery). They take our own signed JSON
 * requests, server to server: no Origin, no form. Each checks the Standard Webhooks signature
 * instead, and neither exists when served publicly.
 */
const SIGNED_RECEIVERS = /^\/dev\/(api-check|webhooks\/receive\/[A-Za-z0-9_-]+)$/;

export const isSignedReceiverPath = (path: string) => SIGNED_RECEIVERS.test(path);
