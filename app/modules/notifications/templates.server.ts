import type { Mail } from "~/modules/mail/mailer.server";
import { escapeHtml, mailButton, mailLayout } from "~/modules/mail/templates.server";
import { NOTIFICATION_KINDS, type NotificationKind } from "./notification-kinds";

/** What a notification says, as the fan-out wrote it. */
export type MailedNotification = { kind: NotificationKind; title: string; body: string; link: string | null };

/** Each kind's button: where its link leads, in words. */
const ACTIONS: Record<NotificationKind, string> = {
  review: "See the task",
  reward: "See your reward",
  raffle: "Check the draw",
  airdrop_claimable: "Claim your share",
  airdrop_closing: "Claim before it closes",
  deposit: "Open your balance",
  withdrawal: "Open your balance",
  invitation: "See the invitation",
  campaign: "See the campaign",
  webhook: "Open the project's webhooks",
};

/** RFC 8058: the link a mail client's "Unsubscribe" posts to, without a session. */
const unsubscribeHeaders = (unsubscribeUrl: string) => ({
  "List-Unsubscribe": `<${unsubscribeUrl}>`,
  "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
});

const absolute = (appUrl: string, link: string | null) => (link ? `${appUrl}${link}` : appUrl);

/** One notification's mail: its title as the subject, its words, a button to the thing, and how to stop these mails. */
export function notificationMail({
  appName,
  appUrl,
  to,
  notification,
  unsubscribeUrl,
}: {
  appName: string;
  appUrl: string;
  to: string;
  notification: MailedNotification;
  unsubscribeUrl: string;
}): Mail {
  const url = absolute(appUrl, notification.link);
  const kindLabel = NOTIFICATION_KINDS[notification.kind].label;
  const settings = `${appUrl}/settings/notifications`;
  const text = [
    notification.title,
    "",
    notification.body,
    "",
    `${ACTIONS[notification.kind]}: ${url}`,
    "",
    "—",
    `You get this e-mail because "${kindLabel}" e-mails are on in your ${appName} settings.`,
    `Stop these e-mails: ${unsubscribeUrl}`,
    `Choose what you are told: ${settings}`,
  ].join("\n");
  const html = mailLayout(
    appName,
    `<p style="font-weight:600;font-size:16px">${escapeHtml(notification.title)}</p>
<p>${escapeHtml(notification.body)}</p>
${mailButton(url, ACTIONS[notification.kind])}`,
    `You get this e-mail because “${escapeHtml(kindLabel)}” e-mails are on. <a href="${escapeHtml(unsubscribeUrl)}" style="color:#71717a">Stop these e-mails</a> · <a href="${escapeHtml(settings)}" style="color:#71717a">Notification settings</a>`,
  );
  return { to, subject: `${notification.title} · ${appName}`, text, html, headers: unsubscribeHeaders(unsubscribeUrl) };
}

/** The day's digest: every waiting notification in one mail, newest first. */
export function digestMail({
  appName,
  appUrl,
  to,
  notifications,
  unsubscribeUrl,
}: {
  appName: string;
  appUrl: string;
  to: string;
  notifications: MailedNotification[];
  unsubscribeUrl: string;
}): Mail {
  const settings = `${appUrl}/settings/notifications`;
  const count = notifications.length === 1 ? "1 update" : `${notifications.length} updates`;
  const text = [
    `Your ${appName} digest: ${count}`,
    "",
    ...notifications.flatMap((n) => [`• ${n.title}`, `  ${n.body}`, `  ${absolute(appUrl, n.link)}`, ""]),
    `All your notifications: ${appUrl}/notifications`,
    "",
    "—",
    `Stop all ${appName} e-mails: ${unsubscribeUrl}`,
    `Choose what you are told: ${settings}`,
  ].join("\n");
  const items = notifications
    .map(
      (n) => `<li style="margin:0 0 16px"><a href="${escapeHtml(absolute(appUrl, n.link))}" style="color:#18181b;font-weight:600">${escapeHtml(n.title)}</a>
<br><span style="color:#52525b">${escapeHtml(n.body)}</span></li>`,
    )
    .join("\n");
  const html = mailLayout(
    appName,
    `<p style="font-weight:600;font-size:16px">Your digest: ${count}</p>
<ul style="padding-left:18px">${items}</ul>
${mailButton(`${appUrl}/notifications`, "Open your notifications")}`,
    `<a href="${escapeHtml(unsubscribeUrl)}" style="color:#71717a">Stop all ${escapeHtml(appName)} e-mails</a> · <a href="${escapeHtml(settings)}" style="color:#71717a">Notification settings</a>`,
  );
  return { to, subject: `Your ${appName} digest: ${count}`, text, html, headers: unsubscribeHeaders(unsubscribeUrl) };
}
