import type { Mail } from "./mailer.server";

/** Text made safe to put in HTML (a mail's body or an attribute). */
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** Every mail's frame: the product's name over `body` (HTML), and an optional small `footer` (HTML) under the card. */
export function mailLayout(appName: string, body: string, footer = "") {
  return `<!doctype html><html><body style="margin:0;background:#f4f4f5;font-family:system-ui,sans-serif;color:#18181b">
<div style="max-width:480px;margin:32px auto;background:#fff;border-radius:12px;padding:32px">
<p style="font-weight:700;font-size:18px;margin:0 0 24px">${escapeHtml(appName)}</p>${body}
</div>${footer ? `<p style="max-width:480px;margin:0 auto 32px;color:#71717a;font-size:12px;text-align:center">${footer}</p>` : ""}</body></html>`;
}

/** A button-like link, as the mails draw them. */
export const mailButton = (url: string, label: string) =>
  `<p><a href="${escapeHtml(url)}" style="display:inline-block;background:#18181b;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none">${escapeHtml(label)}</a></p>`;

/** The sign-in e-mail: a single-use link and a 6-digit code, or whichever of the two was asked for. */
export function signInMail({ appName, to, url, code }: { appName: string; to: string; url?: string; code?: string }): Mail {
  const text = [`Sign in to ${appName}`, ""];
  let html = "";
  if (url) {
    text.push("Open this link to sign in (it works once and expires in 15 minutes):", url, "");
    html += `<p>Click the button to sign in. The link works once and expires in 15 minutes.</p>
<p><a href="${escapeHtml(url)}" style="display:inline-block;background:#18181b;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none">Sign in to ${escapeHtml(appName)}</a></p>`;
  }
  if (code) {
    text.push(`${url ? "Or enter" : "Enter"} this code: ${code} (valid for 10 minutes)`, "");
    html += `<p>${url ? "Or enter" : "Enter"} this code (valid for 10 minutes):</p>
<p style="font-size:28px;letter-spacing:8px;font-weight:700">${code}</p>`;
  }
  text.push("If you did not ask to sign in, ignore this e-mail.");
  html += `<p style="color:#71717a;font-size:13px">If you did not ask to sign in, ignore this e-mail.</p>`;
  return {
    to,
    subject: code ? `Your ${appName} sign-in code: ${code}` : `Your ${appName} sign-in link`,
    text: text.join("\n"),
    html: mailLayout(appName, html),
  };
}

export function changeEmailMail({ appName, to, code }: { appName: string; to: string; code: string }): Mail {
  return {
    to,
    subject: `Confirm your new ${appName} e-mail: ${code}`,
    text: [`Enter this code to confirm ${to} as your ${appName} e-mail: ${code}`, "", "It is valid for 10 minutes."].join("\n"),
    html: mailLayout(
      appName,
      `<p>Enter this code to confirm this address as your e-mail:</p>
<p style="font-size:28px;letter-spacing:8px;font-weight:700">${code}</p><p style="color:#71717a;font-size:13px">It is valid for 10 minutes.</p>`,
    ),
  };
}
