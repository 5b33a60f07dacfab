import type { Mail } from "~/modules/mail/mailer.server";
import type { ProjectRole } from "./permissions.server";

const escape = (value: string) => value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

const ROLE_WORDS: Record<ProjectRole, string> = {
  owner: "an owner",
  admin: "an admin",
  reviewer: "a reviewer",
};

/** The link an invite is answered at. */
export function inviteUrl(appUrl: string, token: string) {
  return `${appUrl}/invites/${encodeURIComponent(token)}`;
}

/** The e-mail that invites someone to a project's team, with the link to accept or decline. */
export function inviteMail({
  appName,
  to,
  projectName,
  role,
  inviterName,
  url,
  expiresAt,
}: {
  appName: string;
  to: string;
  projectName: string;
  role: ProjectRole;
  inviterName: string | null;
  url: string;
  expiresAt: Date;
}): Mail {
  const who = inviterName ? `${inviterName} invited you` : "You are invited";
  const until = expiresAt.toLocaleDateString("en", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
  const lead = `${who} to join ${projectName} on ${appName} as ${ROLE_WORDS[role]}.`;
  const text = [
    lead,
    "",
    "Open this link to accept or decline (sign in with this e-mail address):",
    url,
    "",
    `The invitation expires on ${until}.`,
    "If you did not expect it, ignore this e-mail.",
  ].join("\n");
  const html = `<!doctype html><html><body style="margin:0;background:#f4f4f5;font-family:system-ui,sans-serif;color:#18181b">
<div style="max-width:480px;margin:32px auto;background:#fff;border-radius:12px;padding:32px">
<p style="font-weight:700;font-size:18px;margin:0 0 24px">${escape(appName)}</p>
<p>${escape(lead)}</p>
<p><a href="${escape(url)}" style="display:inline-block;background:#18181b;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none">View the invitation</a></p>
<p style="color:#71717a;font-size:13px">Sign in with this e-mail address to accept. The invitation expires on ${escape(until)}. If you did not expect it, ignore this e-mail.</p>
</div></body></html>`;
  return { to, subject: `Join ${projectName} on ${appName}`, text, html };
}
